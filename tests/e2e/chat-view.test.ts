import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { insertConversation } from '../support/fixtures';
import { call, signUp, useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, current, signedInPerson, useChromium } from '../support/tabs';
import { chatViewViolations, png, sendAs } from './chat-view-support';

/**
 * The chat view against the real server: two people in two browser contexts, each on /inbox/{id}, the
 * messages going through the real engine and socket.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

/** A person with a REST token (to post what the engine cannot yet) and a signed-in tab. */
const person = (nickname: string) =>
  signedInPerson(chromium, s, nickname, { context: { viewport: { width: 1000, height: 800 } } });

const log = (page: Page) => page.getByRole('log');
const row = (page: Page, messageId: number) => log(page).locator(`[data-message-id="${messageId}"]`);

describe('chat view', () => {
  it('shows a message sent by one person in the other person’s open chat, and in their second tab', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const chatId = await createChat(alice.page, 'Bob', bob.user.phone);
    await alice.page.goto(`${s.url}/inbox/${chatId}`);
    await bob.page.goto(`${s.url}/inbox/${chatId}`);
    await expect.poll(() => bob.page.getByRole('heading', { name: 'Alice' }).count()).toBe(1);
    await expect.poll(() => alice.page.getByRole('heading', { name: 'Bob' }).count()).toBe(1);

    await alice.page.evaluate((id) => window.engine.sendMessage(id, { text: 'Hello Bob, this is Alice' }), chatId);
    await expect.poll(() => log(bob.page).getByText('Hello Bob, this is Alice').count()).toBe(1);
    // The sender sees it as their own message.
    await expect
      .poll(() => log(alice.page).getByRole('article', { name: 'Your message' }).getByText('Hello Bob, this is Alice').count())
      .toBe(1);

    // A second tab of Bob's shows the same chat, and both follow live.
    const bob2 = await bob.context.newPage();
    await bob2.goto(`${s.url}/inbox/${chatId}`);
    await expect.poll(() => log(bob2).getByText('Hello Bob, this is Alice').count()).toBe(1);
    const textbox = alice.page.getByRole('textbox', { name: 'Message', exact: true });
    await textbox.fill('Typed in the composer');
    await textbox.press('Enter');
    for (const tab of [bob.page, bob2]) {
      await expect.poll(() => log(tab).getByText('Typed in the composer').count()).toBe(1);
    }
    await bob2.close();

    // Back goes to the chats list.
    await alice.page.getByRole('button', { name: 'Back to chats' }).click();
    await expect.poll(() => new URL(alice.page.url()).pathname).toBe('/inbox');
  });

  it('marks an own message delivered, then read once the other person sees it', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const chatId = await createChat(alice.page, 'Bob', bob.user.phone);
    await alice.page.goto(`${s.url}/inbox/${chatId}`);
    // Bob is online but not in the chat: his engine marks the message delivered, not read.
    await bob.page.goto(`${s.url}/inbox`);
    await alice.page.evaluate((id) => window.engine.sendMessage(id, { text: 'Did you get this?' }), chatId);
    const own = log(alice.page).getByRole('article', { name: 'Your message' }).filter({ hasText: 'Did you get this?' });
    await expect.poll(() => own.getByText('Delivered').count(), { timeout: 15_000 }).toBe(1);
    await bob.page.goto(`${s.url}/inbox/${chatId}`);
    await expect.poll(() => own.getByText('Read').count(), { timeout: 15_000 }).toBe(1);
  });

  it('renders an image message at most 300 px on its longer side', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const chatId = await createChat(alice.page, 'Bob', bob.user.phone);
    await alice.page.goto(`${s.url}/inbox/${chatId}`);
    await expect.poll(() => alice.page.getByRole('heading', { name: 'Bob' }).count()).toBe(1);

    const upload = new FormData();
    upload.append('file', new Blob([new Uint8Array(png(900, 600))], { type: 'image/png' }), 'harbour.png');
    const { file } = (
      await call<{ file: { id: string } }>(s.url, 'POST', '/v2/filestorage/file', { token: bob.user.token, body: upload })
    ).data;
    const id = await sendAs(s, bob.user, chatId, 'A photo', { attachment: { type: 'image', files: [{ id: file.id }] } });

    const image = row(alice.page, id).getByRole('img', { name: 'harbour.png' });
    // The bubble shows the thumbnail, 640 px on its longer side (docs/server.md "Uploads").
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(640);
    const box = await image.evaluate((img) => img.getBoundingClientRect().toJSON() as DOMRect);
    expect(Math.max(box.width, box.height)).toBeLessThanOrEqual(300);
    expect(box.width).toBeGreaterThan(250);
    expect(await row(alice.page, id).getByRole('button', { name: /Open image/ }).count()).toBe(1);

    // Alice sends a picture through her engine (uploaded by the outbox); Bob sees it at most 300 px.
    await bob.page.goto(`${s.url}/inbox/${chatId}`);
    await alice.page.evaluate(async (conversationId) => {
      const canvas = document.createElement('canvas');
      canvas.width = 400;
      canvas.height = 800;
      const context = canvas.getContext('2d');
      if (context) {
        context.fillStyle = '#c33';
        context.fillRect(0, 0, 400, 800);
      }
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (!blob) throw new Error('no canvas blob');
      const file = new File([blob], 'tower.png', { type: 'image/png' });
      await window.engine.sendMessage(conversationId, { text: 'A tall one', file });
    }, chatId);
    const tower = log(bob.page).getByRole('img', { name: 'tower.png' });
    // Its thumbnail: 640 px on its longer side.
    await expect
      .poll(() => tower.evaluate((img: HTMLImageElement) => img.complete && img.naturalHeight), { timeout: 20_000 })
      .toBe(640);
    const towerBox = await tower.evaluate((img) => img.getBoundingClientRect().toJSON() as DOMRect);
    expect(towerBox.height).toBeLessThanOrEqual(300);
    expect(towerBox.height).toBeGreaterThan(250);
  });

  it('makes links of http, https and mailto only, opening in a new tab without an opener', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const chatId = await createChat(alice.page, 'Bob', bob.user.phone);
    await alice.page.goto(`${s.url}/inbox/${chatId}`);
    const text =
      'Read https://example.com/a?b=1, write mailto:bob@example.se, not javascript:alert(1) nor ftp://files.example.com or data:text/html,hi';
    const id = await sendAs(s, bob.user, chatId, text);
    await expect.poll(() => row(alice.page, id).count()).toBe(1);
    const links = await row(alice.page, id)
      .locator('.msg-text a')
      .evaluateAll((as) =>
        as.map((a) => ({ href: a.getAttribute('href'), rel: a.getAttribute('rel'), target: a.getAttribute('target') })),
      );
    expect(links).toEqual([
      { href: 'https://example.com/a?b=1', rel: 'noopener noreferrer', target: '_blank' },
      { href: 'mailto:bob@example.se', rel: 'noopener noreferrer', target: '_blank' },
    ]);
    // The rest stays as plain text.
    expect(await row(alice.page, id).locator('.msg-text').innerText()).toBe(text);
  });

  it('separates days and words times as Today, Yesterday or a date, in English and in Swedish', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const now = Date.now();
    const db = s.server.ctx.db;
    const chatId = (await insertConversation(db, { members: [alice.user.id, bob.user.id], now: now - 400 * 86_400_000 })).id;
    const insert = async (stid: string, text: string, createdAt: number) =>
      (await db.get<{ id: number }>(
        sql`INSERT INTO messages (stid, conversation_id, user_id, message, created_at, updated_at)
            VALUES (${stid}, ${chatId}, ${bob.user.id}, ${text}, ${createdAt}, ${createdAt}) RETURNING id`,
      ))!.id;
    const at = (daysAgo: number) => {
      const d = new Date(now);
      d.setHours(12, 0, 0, 0);
      return d.getTime() - daysAgo * 86_400_000;
    };
    await insert('msg_days_1', 'From last year', at(400));
    await insert('msg_days_2', 'From yesterday', at(1));
    const last = await insert('msg_days_3', 'From today', now);
    await db.run(sql`UPDATE conversations SET last_message_id = ${last}, last_message_at = ${now} WHERE id = ${chatId}`);

    await alice.page.goto(`${s.url}/inbox/${chatId}`);
    await expect.poll(() => log(alice.page).getByText('From today').count()).toBe(1);
    const separators = () => log(alice.page).getByRole('separator').allInnerTexts();
    const yearAgo = new Date(at(400));
    const expectedDate = new Intl.DateTimeFormat('en', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }).format(yearAgo);
    // The three messages were unread: the unread divider goes below the first one's day separator.
    await expect.poll(separators).toEqual([expectedDate, '3 unread messages', 'Yesterday', 'Today']);
    const times = await log(alice.page).locator('.msg-meta time').allInnerTexts();
    expect(times[1]).toMatch(/^Yesterday \d\d:\d\d$/);
    expect(times[2]).toMatch(/^Today \d\d:\d\d$/);
    expect(times[0]).toContain(String(yearAgo.getFullYear()));

    await alice.page.evaluate(() => window.engine.setLanguage('sv'));
    await alice.page.reload();
    const days = () => log(alice.page).locator('.chat-day').allInnerTexts();
    await expect.poll(days).toEqual([expect.stringContaining(String(yearAgo.getFullYear())), 'Igår', 'Idag']);
    expect(await alice.page.getByRole('button', { name: 'Tillbaka till chattarna' }).count()).toBe(1);
    expect(await alice.page.getByRole('log', { name: 'Meddelanden' }).count()).toBe(1);
    expect(await log(alice.page).locator('.msg-meta time').last().innerText()).toMatch(/^Idag \d\d:\d\d$/);
  });

  it('words system messages, shows replies, sender names and the header of a group, without serious axe violations', async () => {
    const alice = await person('Alice');
    const erik = await signUp(s.url, 'Erik');
    const sara = await signUp(s.url, 'Sara');
    const olle = await signUp(s.url, 'Olle');
    const db = s.server.ctx.db;
    const groupId = (
      await insertConversation(db, {
        members: [alice.user.id, erik.id, sara.id],
        admins: [erik.id],
        name: 'Book club',
        isGroup: true,
        now: Date.now(),
      })
    ).id;
    const question = await sendAs(s, sara, groupId, 'What are we reading next?');
    await call(s.url, 'PUT', `/v2/conversations/${groupId}`, { token: erik.token, form: { name: 'Readers' } });
    await call(s.url, 'POST', `/v2/conversations/${groupId}/users`, {
      token: erik.token,
      form: { 'member[0][name]': 'Olle', 'member[0][value]': olle.phone },
    });
    const reply = await sendAs(s, erik, groupId, 'Moby Dick, I think', { quoted_message_id: question });

    await alice.page.goto(`${s.url}/inbox/${groupId}`);
    const page = alice.page;
    await expect.poll(() => page.getByRole('heading', { name: 'Readers' }).count()).toBe(1);
    expect(await page.getByText('4 members').count()).toBe(1);
    await expect.poll(() => log(page).getByText('Erik renamed the group to “Readers”').count()).toBe(1);
    expect(await log(page).getByText('Erik added Olle').count()).toBe(1);
    const quote = row(page, reply).getByRole('button', { name: /^Reply to Sara\s+What are we reading next\?/ });
    expect(await quote.count()).toBe(1);
    expect(await row(page, reply).locator('.msg-sender').innerText()).toBe('Erik');
    expect(await row(page, question).locator('.msg-sender').innerText()).toBe('Sara');
    await quote.click();
    await expect.poll(() => row(page, question).locator('..').getAttribute('class')).toContain('chat-row-highlight');

    expect(await chatViewViolations(page)).toEqual([]);
  });

  it('shows a send refused for good with its error and Discard, and no Retry that cannot work', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    // A demo chat refuses every send (spec §6 "This is a demo chat"): the outbox keeps it as failed.
    const chatId = (
      await insertConversation(s.server.ctx.db, {
        members: [alice.user.id, bob.user.id],
        name: 'Demo',
        demo: true,
        now: Date.now(),
      })
    ).id;
    await alice.page.goto(`${s.url}/inbox/${chatId}`);
    await expect.poll(() => alice.page.getByRole('heading', { name: 'Demo' }).count()).toBe(1);
    await alice.page.evaluate((id) => window.engine.sendMessage(id, { text: 'Are you still there?' }), chatId);
    const failed = log(alice.page).getByRole('article', { name: 'Your message, not sent' });
    await expect.poll(() => failed.count(), { timeout: 15_000 }).toBe(1);
    const outbox = await current(alice.page, 'outbox');
    const message = outbox[0]?.error?.message ?? '';
    expect(message).toBe('This is a demo chat');
    expect(await failed.getByRole('alert').first().innerText()).toBe(message);
    // A 403 cannot change on a retry, and a demo chat has no input to edit it in (docs/ui.md "Sending").
    expect(await failed.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await failed.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await failed.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => failed.count()).toBe(0);
    expect(await current(alice.page, 'outbox')).toEqual([]);
  });
});
