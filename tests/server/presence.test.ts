import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock';
import type { PresenceAnswer } from '../../src/protocol/api';
import { insertConversation } from '../support/fixtures';
import { call, signUp, startTestServer, TestSocket } from '../support/server';

/**
 * GET /v1/users/{id}/presence (issue 23): what a chat opened later shows, since `user_presence` tells only
 * changes — online now, else when the person's last socket closed — to those who share a chat with them.
 */
describe('GET /v1/users/{id}/presence', () => {
  it('says online while a socket is open, then the time the last one closed; strangers learn nothing', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 3, 14, 2));
    const s = await startTestServer({}, { clock });
    try {
      const anna = await signUp(s.url, 'Anna');
      const erik = await signUp(s.url, 'Erik');
      const olle = await signUp(s.url, 'Olle');
      await insertConversation(s.server.ctx.db, { members: [anna.id, erik.id] });
      const ask = (token: string, id: number | string, language = 'en') =>
        call<PresenceAnswer>(s.url, 'GET', `/v1/users/${id}/presence`, { token, headers: { 'Accept-Language': language } });

      expect((await ask(anna.token, erik.id)).data).toEqual({ user_id: erik.id, online: false, last_seen: null });
      const first = new TestSocket(s.url, erik.token);
      const second = new TestSocket(s.url, erik.token);
      await Promise.all([first.loaded(), second.loaded()]);
      await expect.poll(async () => (await ask(anna.token, erik.id)).data).toMatchObject({ online: true });
      first.close();
      // Another socket of his is still open: still online.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await ask(anna.token, erik.id)).data).toMatchObject({ online: true, last_seen: null });
      clock.advance(60_000);
      second.close();
      await expect
        .poll(async () => (await ask(anna.token, erik.id)).data)
        .toMatchObject({ online: false, last_seen: String(Date.UTC(2026, 2, 3, 14, 3) / 1000) });

      for (const [token, id] of [[olle.token, erik.id], [anna.token, anna.id], [anna.token, 'x'], [anna.token, 999_999]] as const) {
        const refused = await ask(token, id);
        expect(refused.status, `${id}`).toBe(404);
        expect(refused.body).toMatchObject({ success: false, status: 404, message: 'User not found' });
      }
      expect((await ask(olle.token, erik.id, 'sv')).body).toMatchObject({ message: 'Användaren hittades inte' });
    } finally {
      await s.close();
    }
  });
});
