import type { CDPSession, Locator, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, sendText, signedInPerson, useChromium, waitFor } from '../support/tabs';

/**
 * Issue 10 on a phone (390×844, touch, as an iPhone 12–15 is): the message actions button shows on a tapped
 * or long-pressed bubble only, and its menu works by touch; the chats list's filter tabs keep to one line.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const PHONE = { hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } } as const;

/** The opacity of each message's actions button, by message id, once transitions have ended. */
async function buttonOpacities(page: Page): Promise<Record<string, number>> {
  await page.waitForTimeout(200);
  return page.evaluate(() =>
    Object.fromEntries(
      Array.from(document.querySelectorAll<HTMLElement>('[data-actions-for]')).map((actions) => {
        const button = actions.querySelector('.message-actions-button');
        return [actions.dataset.actionsFor ?? '', button ? Number(getComputedStyle(button).opacity) : -1];
      }),
    ),
  );
}

/** The ids of the messages whose actions button shows. */
async function shownButtons(page: Page): Promise<string[]> {
  const opacities = await buttonOpacities(page);
  return Object.keys(opacities).filter((id) => (opacities[id] ?? 0) > 0.5);
}

/** A finger resting on `target` for `ms`, then lifted (Playwright has taps only). */
async function longPress(cdp: CDPSession, target: Locator, ms = 800): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to press');
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await new Promise((resolve) => setTimeout(resolve, ms));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

describe('the touch actions button at 390 px with hasTouch', () => {
  it('is on no bubble until one is tapped, then on that one only; its menu works by touch; a long press opens it', async () => {
    const erik = await signedInPerson(chromium, s, 'Erik');
    const anna = await signedInPerson(chromium, s, 'Anna', { context: { ...PHONE, locale: 'en-US' } });
    const page = anna.page;
    expect(await page.evaluate(() => matchMedia('(hover: none)').matches)).toBe(true);

    const chat = await createChat(page, 'Erik', erik.user.phone);
    await erik.page.evaluate(() => window.engine.refreshConversations());
    for (const text of ['First from Erik', 'Second from Erik', 'Third from Erik']) await sendText(erik.page, chat, text);
    await sendText(page, chat, 'Mine');
    const view = await waitFor(page, 'messages', [chat], (v) => expect(v.messages).toHaveLength(4));
    const idOf = (text: string) => String(view.messages.find((m) => m.message === text)?.id);

    await page.goto(`${s.url}/inbox/${chat}`);
    const bubble = (text: string) => page.locator('.msg-bubble', { hasText: text });
    await bubble('Mine').waitFor();
    // Not on every bubble: no button shows until a message is tapped.
    expect(Object.keys(await buttonOpacities(page))).toHaveLength(4);
    expect(await shownButtons(page)).toEqual([]);

    // A tap on a bubble shows its button, and only its.
    await bubble('Second from Erik').tap();
    await expect.poll(() => shownButtons(page)).toEqual([idOf('Second from Erik')]);
    // A tap on another moves it there.
    await bubble('Mine').tap();
    await expect.poll(() => shownButtons(page)).toEqual([idOf('Mine')]);
    // A second tap on the same bubble puts it away.
    await bubble('Mine').tap();
    await expect.poll(() => shownButtons(page)).toEqual([]);

    // The menu works by touch: reply from it.
    await bubble('Second from Erik').tap();
    const button = page.locator(`[data-actions-for="${idOf('Second from Erik')}"]`).getByRole('button', { name: 'Message actions' });
    await button.tap();
    await page.getByRole('menu').waitFor();
    await page.getByRole('menuitem', { name: 'Reply' }).tap();
    await expect.poll(() => page.getByTestId('composer-reply-preview').textContent()).toContain('Replying to Erik');
    expect(await page.getByRole('menu').count()).toBe(0);

    // A tap outside the messages (the composer's edge) puts the button away.
    await page.locator('.composer').tap({ position: { x: 4, y: 4 } });
    await expect.poll(() => shownButtons(page)).toEqual([]);

    // A long press opens the menu of the pressed message at once; a reaction from it is sent.
    const cdp = await anna.context.newCDPSession(page);
    await longPress(cdp, bubble('Third from Erik').locator('.msg-text'));
    await page.getByRole('menu').waitFor();
    expect(await shownButtons(page)).toEqual([idOf('Third from Erik')]);
    await page.getByRole('menuitemcheckbox', { name: 'React with thumbs up' }).tap();
    await waitFor(page, 'messages', [chat], (v) => {
      expect(v.messages.find((m) => m.message === 'Third from Erik')?.reactions.map((r) => r.reaction)).toEqual(['👍']);
    });
    await expect.poll(() => page.locator(`article:has([data-actions-for="${idOf('Third from Erik')}"]) .reaction-chip`).count()).toBe(1);
    // The long press neither selected the text nor left the menu open behind it.
    expect(await page.evaluate(() => String(getSelection() ?? ''))).toBe('');
    expect(await page.getByRole('menu').count()).toBe(0);
  });
});

describe('the filter tabs at 390 px', () => {
  it('keep all four tabs of a communities country on one line, in view, in Swedish and in English', async () => {
    const sari = await signedInPerson(chromium, s, 'Sari', { country: '62', context: { ...PHONE, locale: 'sv-SE' } });
    const page = sari.page;
    for (const language of ['sv', 'en'] as const) {
      await page.evaluate((l) => window.engine.setLanguage(l), language);
      await page.goto(`${s.url}/inbox`);
      const tabs = page.getByRole('tab');
      await expect.poll(() => tabs.count()).toBe(4);
      const names = language === 'sv' ? ['Alla', 'Olästa', 'Gemenskaper', 'Grupper'] : ['All', 'Unread', 'Communities', 'Groups'];
      await expect.poll(() => tabs.allTextContents()).toEqual(names);
      // Whichever tab is chosen (its fill must not widen it), all four sit on one line, none cut off.
      for (let chosen = 0; chosen < 4; chosen++) {
        await tabs.nth(chosen).tap();
        await expect.poll(() => tabs.nth(chosen).getAttribute('aria-selected')).toBe('true');
        const layout = await page.getByRole('tablist').evaluate((list) => {
          const box = list.getBoundingClientRect();
          return {
            list: { left: box.left, right: box.right, scrolls: list.scrollWidth > list.clientWidth },
            tabs: Array.from(list.querySelectorAll('[role="tab"]')).map((tab) => {
              const r = tab.getBoundingClientRect();
              return { top: Math.round(r.top), left: r.left, right: r.right };
            }),
          };
        });
        expect(new Set(layout.tabs.map((t) => t.top)).size, `${language}, tab ${chosen} chosen`).toBe(1);
        expect(layout.list.scrolls).toBe(false);
        for (const tab of layout.tabs) {
          expect(tab.left).toBeGreaterThanOrEqual(layout.list.left);
          expect(tab.right).toBeLessThanOrEqual(layout.list.right);
        }
      }
      await tabs.nth(0).tap();
    }
  });
});
