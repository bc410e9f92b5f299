import type { BrowserContext, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/protocol/entities';
import { loadConversation, serializeConversation } from '../../server/domain/serialize';
import { call, signUp, useTestServer, type TestUser } from '../support/server';
import { CLIENT_DIR, openTab, signInThrough, useChromium, waitFor } from '../support/tabs';

/**
 * Issue 10, "Unread counts": someone else renaming a group, changing its description or picture, adding,
 * removing, promoting or demoting members leaves the other members' chats lists alone: no unread badge, not
 * in the Unread filter, no notification. A real message counts, once, and after a reload (the server's
 * count) it is still the same one. Opening a chat whose last row is an event reads it for good.
 */
const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex'));

/** A context whose tabs record the notifications they show (the permission is granted). */
async function recordingContext(): Promise<BrowserContext> {
  const context = await chromium.browser.newContext({ viewport: { width: 1200, height: 800 } });
  await context.grantPermissions(['notifications'], { origin: s.url });
  await context.addInitScript(() => {
    const shown: { title: string; body: string }[] = [];
    class RecordingNotification {
      static permission = 'granted';
      static requestPermission = () => Promise.resolve('granted');
      onclick: (() => void) | null = null;
      constructor(title: string, options: { body?: string } = {}) {
        shown.push({ title, body: options.body ?? '' });
      }
      close(): void {}
    }
    (window as unknown as { Notification: unknown }).Notification = RecordingNotification;
    (window as unknown as { shownNotifications: unknown }).shownNotifications = shown;
  });
  return context;
}

const shown = (page: Page) =>
  page.evaluate(() => (window as unknown as { shownNotifications: { title: string; body: string }[] }).shownNotifications);

/** The other members' changes, each through the API as their apps make them. */
function changesBy(user: TestUser, groupId: number) {
  const edit = (form: Record<string, string | number>) =>
    call(s.url, 'PUT', `/v2/conversations/${groupId}`, { token: user.token, form }).then((r) => expect(r.status).toBe(200));
  return {
    rename: (name: string) => edit({ name }),
    describe: (description: string) => edit({ description }),
    picture: async () => {
      const form = new FormData();
      form.append('image', new Blob([PNG], { type: 'image/png' }), 'group.png');
      const image = await call<{ image: { id: number } }>(s.url, 'POST', '/v1/images', { token: user.token, body: form });
      await edit({ image_id: image.data.image.id });
    },
    add: (person: TestUser) =>
      call(s.url, 'POST', `/v2/conversations/${groupId}/users`, {
        token: user.token,
        form: { 'member[0][name]': 'Someone', 'member[0][value]': person.phone },
      }).then((r) => expect(r.status).toBe(200)),
    remove: (person: TestUser) =>
      call(s.url, 'DELETE', `/v1/conversations/${groupId}/users/${person.id}`, { token: user.token }).then((r) =>
        expect(r.status).toBe(200),
      ),
    admin: (userId: number, isAdmin: boolean) =>
      call(s.url, 'PUT', `/v1/conversations/${groupId}/users/${userId}`, {
        token: user.token,
        form: { is_admin: isAdmin ? 1 : 0 },
      }).then((r) => expect(r.status).toBe(200)),
    say: (text: string) =>
      call(s.url, 'POST', `/v2/conversations/${groupId}/messages`, {
        token: user.token,
        json: { client_id: Math.floor(Math.random() * 10000) + 1, message: text },
      }).then((r) => expect(r.status).toBe(201)),
  };
}

/** What the server counts for the user (its `unread_message_count`), to hold next to what the list shows. */
const serverCount = async (userId: number, groupId: number) => {
  const db = s.server.ctx.db;
  const row = await loadConversation(db, groupId);
  return row ? (await serializeConversation(db, row, userId, 1)).unread_message_count : null;
};

describe('system events are not unread (issue 10)', () => {
  it('renames, pictures and member changes by someone else leave no badge, no Unread entry and no notification', async () => {
    const context = await recordingContext();
    try {
      const page = await openTab(context, s.url);
      const erik = await signUp(s.url, 'Erik');
      const anna = await signUp(s.url, 'Anna');
      const extra = await signUp(s.url, 'Extra');
      const sara = await signInThrough(page, 'Sara');
      await page.waitForURL(/\/inbox$/);

      // Erik makes a group with Sara and Anna, and is its admin.
      const created = await call<{ conversation: Conversation }>(s.url, 'POST', '/v2/conversations', {
        token: erik.token,
        form: {
          name: 'Book club',
          force_group: 1,
          'member[0][name]': 'Sara',
          'member[0][value]': sara.phone,
          'member[1][name]': 'Anna',
          'member[1][value]': anna.phone,
        },
      });
      const groupId = created.data.conversation.id;
      const erikDoes = changesBy(erik, groupId);
      const row = page.locator(`.inbox-row[data-conversation-id="${groupId}"]`);
      const badge = row.getByTestId('unread-badge');
      await expect.poll(() => row.count()).toBe(1);

      // Every kind of change, by Erik: each shows live in Sara's list (the name, the latest event) …
      await erikDoes.rename('Readers');
      await erikDoes.describe('One book a month');
      await erikDoes.picture();
      await erikDoes.add(extra);
      await erikDoes.remove(extra);
      await erikDoes.admin(anna.id, true);
      await erikDoes.admin(anna.id, false);
      await erikDoes.rename('Readers club');
      await expect.poll(() => row.locator('.inbox-row__name').textContent()).toBe('Readers club');
      await waitFor(page, 'conversation', [groupId], (item) => {
        expect(item?.conversation.last_message?.type).toBe('system');
        expect(item?.unreadCount).toBe(0);
        expect(item?.isUnread).toBe(false);
      });
      // … but counts nothing: no badge, not bold, not under Unread, no notification.
      expect(await badge.count()).toBe(0);
      expect(await row.getAttribute('class')).not.toContain('inbox-row--unread');
      await page.getByRole('tab', { name: 'Unread' }).click();
      await expect.poll(() => page.locator('.inbox-row').count()).toBe(0);
      await page.getByRole('tab', { name: 'All' }).click();
      expect(await shown(page)).toEqual([]);
      expect(await serverCount(sara.userId, groupId)).toBe(0);

      // A message counts: the badge says 1, the chat is under Unread, and a notification is shown.
      await erikDoes.say('Next book: Moby Dick');
      await expect.poll(() => badge.textContent()).toBe('1');
      await expect.poll(async () => (await shown(page)).map((n) => n.body)).toEqual(['Erik: Next book: Moby Dick']);
      await page.getByRole('tab', { name: 'Unread' }).click();
      await expect.poll(() => page.locator('.inbox-row').count()).toBe(1);
      await page.getByRole('tab', { name: 'All' }).click();

      // More events after it add nothing; the server counts the same 1, also after a reload.
      await erikDoes.rename('Moby Dick readers');
      await erikDoes.add(extra);
      await expect.poll(() => row.locator('.inbox-row__name').textContent()).toBe('Moby Dick readers');
      expect(await badge.textContent()).toBe('1');
      expect(await serverCount(sara.userId, groupId)).toBe(1);
      await page.reload();
      await expect.poll(() => row.locator('.inbox-row__name').textContent()).toBe('Moby Dick readers');
      await expect.poll(() => badge.textContent()).toBe('1');
      expect((await shown(page)).length).toBe(0);

      // Opening the chat (its last row is an event) reads it: on the server too, so a reload keeps it read.
      await row.click();
      await page.waitForURL(new RegExp(`/inbox/${groupId}$`));
      await waitFor(page, 'conversation', [groupId], (item) => expect(item?.unreadCount).toBe(0));
      await expect.poll(() => serverCount(sara.userId, groupId)).toBe(0);
      await page.goto(`${s.url}/inbox`);
      await expect.poll(() => row.count()).toBe(1);
      await erikDoes.picture();
      await erikDoes.remove(extra);
      await page.reload();
      await expect.poll(() => row.locator('.inbox-row__name').textContent()).toBe('Moby Dick readers');
      await waitFor(page, 'conversation', [groupId], (item) => expect(item?.unreadCount).toBe(0));
      expect(await badge.count()).toBe(0);
      expect(await serverCount(sara.userId, groupId)).toBe(0);
      expect(await shown(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
