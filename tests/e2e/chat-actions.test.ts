import type { BrowserContext, Locator, Page } from 'playwright';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { newStid } from '../../server/domain/ids';
import { seriousViolations } from '../support/axe';
import { insertConversation } from '../support/fixtures';
import { useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, current, openTab, signInThrough, useChromium, waitFor } from '../support/tabs';

/**
 * The composer, the message action menu, the delete dialog and the reactions, in Chromium against the
 * reference server, with two people in two browser profiles (issue 4 "Tests that must exist").
 */

const server = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();
let annaContext: BrowserContext;
let erikContext: BrowserContext;
let anna: Page;
let erik: Page;
let annaId: number;
let annaPhone: string;
let erikId: number;
let chatId: number;

/** A 1×1 PNG: the server reads the type from the bytes, and the browser can draw it. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });

/** The id of the loaded message with this text, once the tab's engine has it. */
async function messageId(page: Page, text: string): Promise<number> {
  const view = await waitFor(page, 'messages', [chatId], (v) => {
    expect(v.messages.some((m) => m.message === text)).toBe(true);
  });
  const found = view.messages.filter((m) => m.message === text);
  return (found[found.length - 1] as { id: number }).id;
}

/** The "Message actions" button of the message with this text. */
async function actionsOf(page: Page, text: string): Promise<Locator> {
  const id = await messageId(page, text);
  return page.locator(`[data-actions-for="${id}"]`).getByRole('button', { name: 'Message actions' });
}

async function openMenu(page: Page, text: string): Promise<Locator> {
  const button = await actionsOf(page, text);
  await button.click();
  await page.getByRole('menu').waitFor();
  return button;
}

/** The open chat (the message list and the composer), apart from the chats list beside it. */
const chat = (page: Page) => page.locator(`section[data-conversation-id="${chatId}"]`);

async function send(page: Page, text: string): Promise<void> {
  await input(page).click();
  await input(page).fill(text);
  await input(page).press('Enter');
}

async function openChat(page: Page, id = chatId): Promise<void> {
  await page.goto(`${server.url}/inbox/${id}`);
  await input(page).or(page.getByTestId('composer-blocked')).waitFor();
}

beforeAll(async () => {
  annaContext = await chromium.browser.newContext({ locale: 'en-US' });
  erikContext = await chromium.browser.newContext({ locale: 'en-US' });
  anna = await openTab(annaContext, server.url + '/login');
  erik = await openTab(erikContext, server.url + '/login');
  ({ userId: annaId, phone: annaPhone } = await signInThrough(anna, 'Anna'));
  const erikSignIn = await signInThrough(erik, 'Erik');
  erikId = erikSignIn.userId;
  chatId = await createChat(anna, 'Erik', erikSignIn.phone);
  await erik.evaluate(() => window.engine.refreshConversations());
  await openChat(anna);
  await openChat(erik);
});

describe('the composer', () => {
  it('sends with Enter, makes a newline with Shift+Enter, and the other person receives both', async () => {
    await send(anna, 'Hej Erik!');
    await expect.poll(() => chat(erik).getByText('Hej Erik!').count()).toBe(1);
    await expect.poll(() => input(anna).inputValue()).toBe('');

    await input(anna).click();
    await anna.keyboard.type('first line');
    await anna.keyboard.press('Shift+Enter');
    await anna.keyboard.type('second line');
    await expect.poll(() => input(anna).inputValue()).toBe('first line\nsecond line');
    await anna.keyboard.press('Enter');
    await waitFor(erik, 'messages', [chatId], (v) => {
      expect(v.messages.map((m) => m.message)).toContain('first line\nsecond line');
    });
  });

  it('sends with Ctrl+Enter, not Enter, when enter-to-send is off', async () => {
    await anna.evaluate(() => window.engine.updateSettings({ enterToSend: false }));
    await input(anna).click();
    await anna.keyboard.type('with control');
    await anna.keyboard.press('Enter');
    await expect.poll(() => input(anna).inputValue()).toBe('with control\n');
    await anna.keyboard.type('and more');
    await anna.keyboard.press('Control+Enter');
    await waitFor(erik, 'messages', [chatId], (v) => {
      expect(v.messages.map((m) => m.message)).toContain('with control\nand more');
    });
    await expect.poll(() => input(anna).inputValue()).toBe('');
    await anna.evaluate(() => window.engine.updateSettings({ enterToSend: true }));
  });

  it('keeps the draft across a reload and shows it in a second tab', async () => {
    await input(anna).fill('half-written thought');
    await waitFor(anna, 'drafts', [], (d) => expect(d[chatId]).toBe('half-written thought'));
    await anna.reload();
    await expect.poll(() => input(anna).inputValue()).toBe('half-written thought');
    const second = await openTab(annaContext, `${server.url}/inbox/${chatId}`);
    await expect.poll(() => input(second).inputValue()).toBe('half-written thought');
    await second.close();
    await input(anna).fill('');
    await waitFor(anna, 'drafts', [], (d) => expect(d[chatId]).toBeUndefined());
  });

  it('refuses a text file with the spec’s alert', async () => {
    await anna.locator('input[type="file"]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a picture'),
    });
    await expect
      .poll(() => anna.getByRole('alert').filter({ hasText: 'File type not supported' }).textContent())
      .toContain('File type not supported. Please select an image or video file.');
    await anna.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('attaches an image through the file input and the message shows it for both', async () => {
    await anna.locator('input[type="file"]').setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PIXEL_PNG });
    await expect.poll(() => anna.getByTestId('composer-attachment').textContent()).toContain('pixel.png');
    await input(anna).fill('a picture');
    await input(anna).press('Enter');
    const shown = (page: Page) =>
      waitFor(page, 'messages', [chatId], (v) => {
        expect(v.messages.some((m) => m.message === 'a picture' && m.attachment?.type === 'image')).toBe(true);
      });
    await shown(anna);
    await shown(erik);
    const id = await messageId(erik, 'a picture');
    await expect
      .poll(() => chat(erik).locator(`article:has([data-actions-for="${id}"]) img`).count())
      .toBeGreaterThan(0);

    // The media viewer: the picture loads in a dialog that Escape closes, focus going back to the picture.
    const picture = chat(erik).locator(`article:has([data-actions-for="${id}"]) button:has(img)`);
    // By keyboard (a 1×1 picture is too small a target for a pointer).
    await picture.focus();
    await erik.keyboard.press('Enter');
    const viewer = erik.getByRole('dialog', { name: 'Media viewer' });
    await expect.poll(() => viewer.getAttribute('data-state')).toBe('loaded');
    // Issue 23: fitted to the screen (a 1×1 picture scaled up, less the margin for the close button), never
    // cropped, over a dark backdrop.
    const fit = await viewer.evaluate((dialog) => {
      const img = dialog.querySelector('img') as HTMLImageElement;
      const box = img.getBoundingClientRect();
      const backdrop = getComputedStyle(dialog, '::backdrop').backgroundColor;
      return { width: box.width, height: box.height, fit: getComputedStyle(img).objectFit, vw: innerWidth, vh: innerHeight, backdrop };
    });
    expect(fit.fit).toBe('contain');
    expect(fit.width).toBeGreaterThan(fit.vw * 0.8);
    expect(fit.width).toBeLessThanOrEqual(fit.vw);
    expect(fit.height).toBeGreaterThan(fit.vh * 0.8);
    expect(fit.height).toBeLessThanOrEqual(fit.vh);
    const alpha = Number(/rgba?\([^)]*,\s*([\d.]+)\)/u.exec(fit.backdrop)?.[1] ?? '1');
    expect(alpha).toBeGreaterThanOrEqual(0.85);
    await erik.keyboard.press('Escape');
    await expect.poll(() => viewer.count()).toBe(0);
    await expect.poll(() => picture.evaluate((b) => b === document.activeElement)).toBe(true);
    // A click beside the picture closes it too (spec §2: outside click).
    await picture.evaluate((b: HTMLElement) => b.click());
    await expect.poll(() => viewer.getAttribute('data-state')).toBe('loaded');
    await erik.mouse.click(5, 5);
    await expect.poll(() => viewer.count()).toBe(0);
  });

  it('covers the chat with an overlay while files are dragged over it and takes the first dropped file', async () => {
    const drag = (type: 'dragenter' | 'drop') =>
      chat(anna).evaluate((section, kind) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'first.png', { type: 'image/png' }));
        transfer.items.add(new File(['x'], 'second.png', { type: 'image/png' }));
        const list = section.querySelector('[role="log"]') ?? section;
        list.dispatchEvent(new DragEvent(kind, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }, type);
    await drag('dragenter');
    await expect.poll(() => anna.getByText('Drop an image or video to attach it').count()).toBe(1);
    await drag('drop');
    await expect.poll(() => anna.getByText('Drop an image or video to attach it').count()).toBe(0);
    await expect.poll(() => anna.getByTestId('composer-attachment').textContent()).toContain('first.png');
    expect(await anna.getByText('second.png').count()).toBe(0);
    await anna.getByRole('button', { name: 'Remove first.png' }).click();
    await expect.poll(() => anna.getByTestId('composer-attachment').count()).toBe(0);
  });

  it('says "This is a demo chat" instead of an input in a demo chat', async () => {
    const demo = await insertConversation(server.server.ctx.db, { members: [annaId], name: 'Demo', demo: true });
    await anna.evaluate(() => window.engine.refreshConversations());
    await openChat(anna, demo.id);
    await expect.poll(() => anna.getByTestId('composer-blocked').textContent()).toBe('This is a demo chat');
    expect(await input(anna).count()).toBe(0);
    await openChat(anna);
  });
});

describe('the action menu', () => {
  it('replies: the preview shows, and the quote shows for the other person', async () => {
    await openMenu(erik, 'Hej Erik!');
    await erik.getByRole('menuitem', { name: 'Reply' }).click();
    await expect.poll(() => erik.getByTestId('composer-reply-preview').textContent()).toContain('Replying to Anna');
    await expect.poll(() => erik.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await erik.keyboard.type('Hej Anna!');
    await erik.keyboard.press('Enter');
    const original = await messageId(anna, 'Hej Erik!');
    await waitFor(anna, 'messages', [chatId], (v) => {
      expect(v.messages.find((m) => m.message === 'Hej Anna!')?.quoted).toBe(original);
    });
    // The reply's row shows the quoted text above its own.
    const reply = await messageId(anna, 'Hej Anna!');
    await expect.poll(() => chat(anna).locator(`article:has([data-actions-for="${reply}"])`).textContent()).toContain('Hej Erik!');
    await expect.poll(() => erik.getByTestId('composer-reply-preview').count()).toBe(0);
  });

  it('edits through the menu; the other person sees the new text as edited', async () => {
    await send(anna, 'Edit me');
    await openMenu(anna, 'Edit me');
    await anna.getByRole('menuitem', { name: 'Edit', exact: true }).click();
    await expect.poll(() => input(anna).inputValue()).toBe('Edit me');
    await input(anna).fill('Edited through the menu');
    await input(anna).press('Enter');
    const edited = await waitFor(erik, 'messages', [chatId], (v) => {
      expect(v.messages.find((m) => m.message === 'Edited through the menu')?.edited_at).toBeGreaterThan(0);
    });
    expect(edited.messages.some((m) => m.message === 'Edit me')).toBe(false);
    const id = await messageId(erik, 'Edited through the menu');
    await expect.poll(() => chat(erik).locator(`article:has([data-actions-for="${id}"])`).textContent()).toContain('edited');
  });

  it('edits the latest own message with the Up arrow in an empty input', async () => {
    await send(anna, 'Up arrow target');
    await messageId(anna, 'Up arrow target');
    await input(anna).click();
    await anna.keyboard.press('ArrowUp');
    await expect.poll(() => input(anna).inputValue()).toBe('Up arrow target');
    await expect.poll(() => anna.getByTestId('composer-edit-preview').count()).toBe(1);
    await input(anna).fill('Up arrow edited');
    await input(anna).press('Enter');
    await waitFor(erik, 'messages', [chatId], (v) => {
      expect(v.messages.find((m) => m.message === 'Up arrow edited')?.edited_at).toBeGreaterThan(0);
    });
  });

  it('reacts: the count shows for both, the other adds theirs, the tooltip names them', async () => {
    await openMenu(anna, 'Hej Anna!');
    await anna.getByRole('menuitemcheckbox', { name: 'React with thumbs up' }).click();
    await expect.poll(() => erik.getByRole('button', { name: '👍 1 reaction' }).count()).toBe(1);
    await expect.poll(() => anna.getByRole('button', { name: '👍 1 reaction' }).count()).toBe(1);
    await erik.getByRole('button', { name: '👍 1 reaction' }).click();
    await expect.poll(() => anna.getByRole('button', { name: '👍 2 reactions' }).count()).toBe(1);
    const chip = anna.getByRole('button', { name: '👍 2 reactions' });
    await expect(chip.getAttribute('aria-pressed')).resolves.toBe('true');
    await chip.hover();
    await expect.poll(() => anna.getByRole('tooltip').textContent()).toBe('Reacted with 👍: You, Erik');
    await anna.mouse.move(0, 0);
    await expect.poll(() => anna.getByRole('tooltip').count()).toBe(0);
  });

  it('shows "Too old to edit", disabled, on an own message older than 45 minutes', async () => {
    const old = Date.now() - 50 * 60 * 1000;
    await server.server.ctx.db.run(
      sql`INSERT INTO messages (stid, conversation_id, user_id, type, message, created_at, updated_at)
          VALUES (${newStid('msg')}, ${chatId}, ${annaId}, 'text', 'An old message', ${old}, ${old})`,
    );
    await anna.reload();
    await input(anna).waitFor();
    await openMenu(anna, 'An old message');
    const item = anna.getByRole('menuitem', { name: 'Too old to edit' });
    await expect(item.getAttribute('aria-disabled')).resolves.toBe('true');
    expect(await anna.getByRole('menuitem', { name: 'Edit', exact: true }).count()).toBe(0);
    await anna.keyboard.press('Escape');
  });

  it('closes on Escape with focus back on its button, and has no serious accessibility violation open', async () => {
    const button = await openMenu(anna, 'Hej Anna!');
    expect(await seriousViolations(anna)).toEqual([]);
    await anna.keyboard.press('ArrowDown');
    await anna.keyboard.press('Escape');
    await expect.poll(() => anna.getByRole('menu').count()).toBe(0);
    await expect.poll(() => button.evaluate((b) => b === document.activeElement)).toBe(true);
  });

  it('deletes for everybody: the text is gone for both, its placeholder in its place (docs/ui.md "Deleted messages")', async () => {
    await send(anna, 'Delete me everywhere');
    const id = await messageId(erik, 'Delete me everywhere');
    await openMenu(anna, 'Delete me everywhere');
    await anna.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = anna.getByRole('dialog', { name: 'Delete message?' });
    await expect(dialog.getAttribute('aria-modal')).resolves.toBe('true');
    expect(await seriousViolations(anna)).toEqual([]);
    await anna.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    await openMenu(anna, 'Delete me everywhere');
    await anna.getByRole('menuitem', { name: 'Delete' }).click();
    await anna.getByRole('button', { name: 'Delete for everybody' }).click();
    await expect.poll(() => chat(erik).getByText('Delete me everywhere').count()).toBe(0);
    await expect.poll(() => chat(anna).getByText('Delete me everywhere').count()).toBe(0);
    for (const page of [anna, erik]) {
      await expect.poll(() => chat(page).locator(`[data-message-id="${id}"]`).getByText('This message was deleted').count()).toBe(1);
    }
  });

  it('deletes for me: gone for me only', async () => {
    await send(erik, 'Hide this one');
    await messageId(anna, 'Hide this one');
    await openMenu(anna, 'Hide this one');
    await anna.getByRole('menuitem', { name: 'Delete' }).click();
    // The dialog is open (its other choice shows) before the missing one can be told apart from a late render.
    await anna.getByRole('button', { name: 'Delete for me' }).waitFor();
    // Erik's message in a one-to-one chat: only Erik may delete it for everybody.
    expect(await anna.getByRole('button', { name: 'Delete for everybody' }).count()).toBe(0);
    await anna.getByRole('button', { name: 'Delete for me' }).click();
    await expect.poll(() => chat(anna).getByText('Hide this one').count()).toBe(0);
    await anna.reload();
    await input(anna).waitFor();
    await messageId(anna, 'Hej Erik!');
    // The reloaded list has drawn its latest row (the list opens at the bottom, where the hidden message
    // was): only then does a missing row mean more than a list still loading.
    const { messages } = await current(anna, 'messages', chatId);
    await chat(anna).locator(`[data-message-id="${messages[messages.length - 1]?.id}"]`).waitFor();
    expect(await chat(anna).getByText('Hide this one').count()).toBe(0);
    await expect.poll(() => chat(erik).getByText('Hide this one').count()).toBe(1);
    expect(erikId).toBeGreaterThan(0);
  });
});

describe('in Swedish', () => {
  it('names the composer, the menu, its items and the dialog in Swedish', async () => {
    const context = await chromium.browser.newContext({ locale: 'sv-SE' });
    const sara = await openTab(context, server.url + '/login');
    await signInThrough(sara, 'Sara');
    const id = await createChat(sara, 'Anna', annaPhone);
    await sara.goto(`${server.url}/inbox/${id}`);
    const field = sara.getByRole('textbox', { name: 'Meddelande' });
    await field.fill('Hej på svenska');
    await field.press('Enter');
    await waitFor(sara, 'messages', [id], (v) => expect(v.messages.some((m) => m.message === 'Hej på svenska')).toBe(true));
    await sara.getByRole('button', { name: 'Meddelandeåtgärder' }).first().click();
    await sara.getByRole('menu').waitFor();
    for (const name of ['Svara', 'Redigera', 'Kopiera', 'Radera']) {
      expect(await sara.getByRole('menuitem', { name, exact: true }).count(), name).toBe(1);
    }
    expect(await sara.getByRole('menuitemcheckbox', { name: 'Reagera med tummen upp' }).count()).toBe(1);
    await sara.getByRole('menuitem', { name: 'Radera', exact: true }).click();
    await expect.poll(() => sara.getByRole('dialog', { name: 'Radera meddelandet?' }).count()).toBe(1);
    expect(await sara.getByRole('button', { name: 'Radera för alla' }).count()).toBe(1);
    await sara.keyboard.press('Escape');
    await context.close();
  });
});
