import type { BrowserContext, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { call, signUp, useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, openTab, signInThrough, useChromium, waitFor } from '../support/tabs';

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

interface Recorded {
  title: string;
  body: string;
  tag: string;
  closed: boolean;
  /** The delay of the timer the page set while showing it (its auto-close), or null. */
  closeDelay: number | null;
}

/** Every tab records the notifications it shows (the permission is granted, so the page's checks pass). */
async function recordingContext(): Promise<BrowserContext> {
  const context = await chromium.browser.newContext();
  await context.grantPermissions(['notifications'], { origin: s.url });
  await context.addInitScript(() => {
    type Entry = {
      title: string;
      body: string;
      tag: string;
      closed: boolean;
      onclick: (() => void) | null;
      closeDelay: number | null;
      fireClose: (() => void) | null;
    };
    const shown: Entry[] = [];
    // The timer a page sets right after showing a notification is its auto-close: it is recorded and held,
    // to run when the test says, so the test controls the clock instead of sleeping through it.
    let justShown: Entry | null = null;
    const realSetTimeout = window.setTimeout.bind(window);
    window.setTimeout = ((handler: TimerHandler, delay?: number, ...args: unknown[]) => {
      const entry = justShown;
      if (entry && typeof handler === 'function') {
        justShown = null;
        entry.closeDelay = delay ?? 0;
        entry.fireClose = () => (handler as (...a: unknown[]) => void)(...args);
        return realSetTimeout(() => undefined, 2_000_000_000);
      }
      return realSetTimeout(handler, delay, ...args);
    }) as typeof window.setTimeout;
    class RecordingNotification {
      static permission = 'granted';
      static requestPermission = () => Promise.resolve('granted');
      onclick: (() => void) | null = null;
      closed = false;
      constructor(
        readonly title: string,
        options: { body?: string; tag?: string } = {},
      ) {
        const entry: Entry = {
          title,
          body: options.body ?? '',
          tag: options.tag ?? '',
          closed: false,
          onclick: null,
          closeDelay: null,
          fireClose: null,
        };
        shown.push(entry);
        justShown = entry;
        queueMicrotask(() => {
          if (justShown === entry) justShown = null;
        });
        Object.defineProperty(this, 'onclick', {
          set: (fn: (() => void) | null) => (entry.onclick = fn),
          get: () => entry.onclick,
        });
        this.close = () => {
          entry.closed = true;
        };
      }
      close(): void {}
    }
    (window as unknown as { Notification: unknown }).Notification = RecordingNotification;
    // The chime's peak volume, each time one is played.
    const volumes: number[] = [];
    (window as unknown as { chimeVolumes: number[] }).chimeVolumes = volumes;
    const ramp = AudioParam.prototype.exponentialRampToValueAtTime;
    AudioParam.prototype.exponentialRampToValueAtTime = function (value: number, time: number) {
      if (value > 0.001) volumes.push(value);
      return ramp.call(this, value, time);
    };
    (window as unknown as { shownNotifications: unknown }).shownNotifications = shown;
  });
  return context;
}

const shown = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { shownNotifications: Recorded[] }).shownNotifications.map(({ title, body, tag, closed, closeDelay }) => ({
      title,
      body,
      tag,
      closed,
      closeDelay,
    })),
  );

/** Runs the held auto-close timers of the notifications a tab showed: the test's clock reaches their end. */
const runCloseTimers = (page: Page) =>
  page.evaluate(() => {
    for (const n of (window as unknown as { shownNotifications: { fireClose: (() => void) | null }[] }).shownNotifications) {
      n.fireClose?.();
      n.fireClose = null;
    }
  });

describe('browser notifications', () => {
  it('shows one notification per message across two tabs; clicking it opens the chat', async () => {
    const context = await recordingContext();
    try {
      const a = await openTab(context, s.url);
      const b = await openTab(context, s.url);
      const friend = await signUp(s.url, 'Notifier');
      await signInThrough(a, 'Listener');
      await a.waitForURL(/\/inbox$/);
      await b.waitForURL(/\/inbox$/);
      const chat = await createChat(a, 'Notifier', friend.phone);
      const say = (text: string) =>
        call(s.url, 'POST', `/v2/conversations/${chat}/messages`, {
          token: friend.token,
          json: { client_id: Math.floor(Math.random() * 10000) + 1, message: text },
        }).then((r) => r.data);
      const all = async () => [...(await shown(a)), ...(await shown(b))];

      await say('first ping');
      await expect.poll(async () => (await all()).length, { timeout: 15_000 }).toBe(1);
      // A second message: had the first been shown twice, there would be three by now.
      const long = 'x'.repeat(150);
      await say(long);
      await expect.poll(async () => (await all()).length, { timeout: 15_000 }).toBe(2);
      expect((await all()).map((n) => [n.title, n.body]).sort()).toEqual([
        ['Notifier', 'first ping'],
        ['Notifier', `${'x'.repeat(100)}…`],
      ]);
      const chimes = async () =>
        [
          ...(await a.evaluate(() => (window as unknown as { chimeVolumes: number[] }).chimeVolumes)),
          ...(await b.evaluate(() => (window as unknown as { chimeVolumes: number[] }).chimeVolumes)),
        ];
      expect(await chimes()).toEqual([0.5, 0.5]);
      // Each closes itself after 3 s: one 3,000 ms timer, and open until it runs (2.5 s in, say), closed after.
      expect((await all()).map((n) => [n.closeDelay, n.closed])).toEqual([
        [3000, false],
        [3000, false],
      ]);
      await runCloseTimers(a);
      await runCloseTimers(b);
      expect((await all()).every((n) => n.closed)).toBe(true);

      // With notifications off nothing is shown; back on, the next message is.
      await a.evaluate(() => window.engine.updateSettings({ notificationsEnable: false }));
      await say('while switched off');
      // The engine decides on a notification as the socket brings the message in: it must have it (in the
      // list's preview) before notifications come back on, or the message could meet them switched on.
      await waitFor(a, 'conversation', [chat], (item) => expect(item?.preview?.text).toBe('while switched off'));
      await a.evaluate(() => window.engine.updateSettings({ notificationsEnable: true }));
      await say('switched on again');
      await expect.poll(async () => (await all()).length, { timeout: 15_000 }).toBe(3);
      expect((await all()).map((n) => n.body)).not.toContain('while switched off');
      // Preview and sound went off with notifications and came back with them: the text, and a chime.
      expect((await all()).map((n) => n.body)).toContain('switched on again');
      expect(await chimes()).toEqual([0.5, 0.5, 0.5]);

      // The click focuses the tab that showed it and opens the chat there.
      const shower = (await shown(a)).length > 0 ? a : b;
      await shower.evaluate(() => {
        const list = (window as unknown as { shownNotifications: { onclick: (() => void) | null }[] }).shownNotifications;
        list[list.length - 1]?.onclick?.();
      });
      await shower.waitForURL(new RegExp(`/inbox/${chat}$`));
    } finally {
      await context.close();
    }
  });

  it('mute silences notifications for that chat only, shows muted in every tab, and unmutes', async () => {
    const context = await recordingContext();
    try {
      const a = await openTab(context, s.url);
      const b = await openTab(context, s.url);
      const friend = await signUp(s.url, 'Chatty');
      await signInThrough(a, 'Muter');
      await a.waitForURL(/\/inbox$/);
      await b.waitForURL(/\/inbox$/);
      const quiet = await createChat(a, 'Chatty', friend.phone);
      const loud = await a.evaluate(async (phone) => {
        const { conversation } = await window.engine.call('createConversation', {
          members: [{ name: 'Chatty', value: phone }],
          name: 'Loud group',
          forceGroup: true,
        });
        await window.engine.refreshConversations();
        return conversation.id;
      }, friend.phone);
      const say = (chat: number, text: string) =>
        call(s.url, 'POST', `/v2/conversations/${chat}/messages`, {
          token: friend.token,
          json: { client_id: Math.floor(Math.random() * 10000) + 1, message: text },
        });
      const all = async () => [...(await shown(a)), ...(await shown(b))];

      // Mute the one-to-one chat from its settings (the other person's profile) in tab a: always.
      await a.goto(`${s.url}/inbox/${quiet}`);
      await a.getByRole('button', { name: 'Chat settings' }).click();
      const group = a.getByRole('group', { name: 'Mute notifications' });
      await expect.poll(() => group.getByRole('radio', { name: 'Off' }).isChecked()).toBe(true);
      await group.getByRole('radio', { name: 'Always' }).check();
      await expect.poll(() => group.getByTestId('mute-status').textContent()).toBe('Muted until you unmute');
      // Tab b's chats list follows: the struck bell on that chat, not on the other.
      const row = (page: Page, id: number) => page.locator(`[data-conversation-id="${id}"]`);
      await expect.poll(() => row(b, quiet).getByTestId('muted-icon').count(), { timeout: 10_000 }).toBe(1);
      expect(await row(b, loud).getByTestId('muted-icon').count()).toBe(0);
      await a.goto(`${s.url}/inbox`);
      await expect.poll(() => row(a, quiet).getByTestId('muted-icon').count(), { timeout: 10_000 }).toBe(1);

      // Messages in both chats: only the group's is notified; the muted chat's unread badge is grey.
      await say(quiet, 'psst, muted');
      await say(loud, 'hello group');
      // A group's notification says who wrote (issue 23), as its row in the list does.
      await expect.poll(async () => (await all()).map((n) => n.body), { timeout: 15_000 }).toEqual(['Chatty: hello group']);
      await expect.poll(() => row(b, loud).locator('.inbox-row__preview').textContent()).toBe('Chatty: hello group');
      await expect.poll(() => row(b, quiet).getByTestId('unread-badge').getAttribute('class')).toContain('inbox-row__badge--muted');
      expect(await row(b, loud).getByTestId('unread-badge').getAttribute('class')).not.toContain('--muted');
      await expect.poll(() => row(b, quiet).textContent()).toContain('muted');
      // The later message of the group is notified while the muted one stays silent: the muted one came first.
      await say(loud, 'group again');
      await expect.poll(async () => (await all()).length, { timeout: 15_000 }).toBe(2);
      expect((await all()).map((n) => n.body)).not.toContain('psst, muted');
      // The one-to-one chat's row has no name before the text: the row is the person.
      expect(await row(b, quiet).locator('.inbox-row__preview').textContent()).toBe('psst, muted');

      // Unmute from tab b's settings: the bell goes away in tab a, and the chat is heard again.
      await b.goto(`${s.url}/inbox/${quiet}`);
      await b.getByRole('button', { name: 'Chat settings' }).click();
      const groupB = b.getByRole('group', { name: 'Mute notifications' });
      await expect.poll(() => groupB.getByRole('radio', { name: 'Always' }).isChecked()).toBe(true);
      await groupB.getByRole('radio', { name: 'Off' }).check();
      await expect.poll(() => row(a, quiet).getByTestId('muted-icon').count(), { timeout: 10_000 }).toBe(0);
      // A reload of the list (not the chat) must not lose the next notification while the page subscribes.
      await b.goto(`${s.url}/inbox`);
      await say(quiet, 'heard again');
      await expect.poll(async () => (await all()).map((n) => n.body), { timeout: 15_000 }).toContain('heard again');
    } finally {
      await context.close();
    }
  });
});
