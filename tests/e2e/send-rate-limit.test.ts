import { describe, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { useTestServer } from '../support/server';
import { CLIENT_DIR, current, openTab, signedInWithFriend, useChromium, waitFor } from '../support/tabs';

/**
 * Issue 12: the server refuses a user's sends past its rate with 429 and Retry-After, and the engine's
 * outbox in the browser waits as told and still delivers everything exactly once, in order.
 */

// Five sends in hand, five more a second: 30 messages need a few refusals and about five seconds.
const s = useTestServer({ clientDir: CLIENT_DIR, sendRateLimit: 5, sendRateWindowMs: 1_000 });
const chromium = useChromium();

describe('sending faster than the server’s rate', () => {
  it('delivers 30 messages typed at once exactly once each, in order, after waiting out the 429s', async () => {
    const context = await chromium.context();
    const page = await openTab(context, s.url);
    const { conversationId } = await signedInWithFriend(page, s.url, 'Hasty');
    const texts = Array.from({ length: 30 }, (_, i) => `burst ${i + 1}`);
    await page.evaluate(
      async ([id, all]) => {
        for (const text of all) await window.engine.sendMessage(id, { text });
      },
      [conversationId, texts] as const,
    );
    // The server refused some: an entry waits out its Retry-After as pending, with a try counted, never failed.
    let refusedOnce = false;
    await expect
      .poll(
        async () => {
          const outbox = await current(page, 'outbox');
          expect(outbox.filter((e) => e.status === 'failed')).toEqual([]);
          refusedOnce ||= outbox.some((e) => e.attempts > 0);
          return outbox.length;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(0);
    expect(refusedOnce).toBe(true);

    const stored = await s.server.ctx.db.all<{ message: string }>(
      sql`SELECT message FROM messages WHERE conversation_id = ${conversationId} ORDER BY id`,
    );
    expect(stored.map((r) => r.message)).toEqual(texts);
    // The tab shows each once, in order: no pending row left beside its message, no message twice.
    await waitFor(page, 'messages', [conversationId], (view) => expect(view.messages.map((m) => m.message)).toEqual(texts));
  });
});
