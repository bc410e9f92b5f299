import { describe, expect, it } from 'vitest';
import { engineError } from '../../../src/engine/errors';
import { Outbox, RETRY_BASE_MS } from '../../../src/engine/messages/outbox';
import type { RestClient } from '../../../src/engine/rest';
import type { CreateCommentInput } from '../../../src/engine/contract/restInputs';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import type { Comment, Participant } from '../../../src/protocol/entities';
import { manualClock } from '../worker/manualClock';

const SELF = 5;
const stored = (input: CreateCommentInput, id = 300): Comment => ({
  comment_id: id,
  post_id: input.postId,
  parent_comment_id: input.parentCommentId ?? null,
  channel_id: 12,
  user_id: SELF,
  message: input.message.trim(),
  created_at: '1800000000',
  reactions: [],
  replies_count: 0,
  client_id: input.clientId ?? null,
});
const author: Participant = { user_id: SELF, name: 'Sari', avatar: '' };

/** An outbox over a transport whose comment calls the test scripts, one answer per call. */
function setup(answers: ('network' | 'refused' | 'ok' | 'hold')[]) {
  const storage = new MemoryStorage();
  const { clock, advance } = manualClock();
  const calls: CreateCommentInput[] = [];
  const holds: (() => void)[] = [];
  const rest = {
    createComment: (_channelId: number, input: CreateCommentInput) => {
      calls.push(input);
      const answer = answers[calls.length - 1] ?? 'ok';
      if (answer === 'network') return Promise.reject(engineError('createComment', 0, null, 'Network error occurred'));
      if (answer === 'refused') return Promise.reject(engineError('createComment', 403, 'You are not a member of this channel', 'x'));
      const reply = { comment: stored(input), participants: [author] };
      if (answer === 'hold') return new Promise((resolve) => holds.push(() => resolve(reply)));
      return Promise.resolve(reply);
    },
  } as unknown as RestClient;
  const storedComments: Comment[] = [];
  const outbox = new Outbox({
    storage,
    rest: () => rest,
    clock,
    userId: () => SELF,
    onStored: () => undefined,
    onCommentStored: (comment) => storedComments.push(comment),
  });
  return { outbox, storage, advance, calls, holds, storedComments };
}

const target = { postId: 40, parentCommentId: 301 };

describe('comments through the outbox (issue 8)', () => {
  it('is stored before it is sent, retried once with the same client_id and key after a network failure, and never again', async () => {
    const t = setup(['network', 'ok']);
    const entry = await t.outbox.add({ conversationId: 12, text: 'Mantap!', quotedMessageId: null, comment: target });
    expect(await t.storage.get('outbox', entry.localId)).toMatchObject({ comment: target, status: 'pending' });
    await expect.poll(() => t.calls.length).toBe(1);
    await t.advance(RETRY_BASE_MS);
    await expect.poll(() => t.calls.length).toBe(2);
    expect(t.calls.map((c) => [c.postId, c.parentCommentId, c.clientId, c.idempotencyKey])).toEqual([
      [40, 301, entry.clientId, entry.localId],
      [40, 301, entry.clientId, entry.localId],
    ]);
    await expect.poll(() => t.outbox.current.length).toBe(0);
    expect(t.storedComments.map((c) => c.message)).toEqual(['Mantap!']);
    expect(await t.storage.getAll('outbox')).toEqual([]);
    // Its echo changes nothing, and nothing is sent again however long the outbox runs.
    await t.outbox.settleComment(t.storedComments[0]!);
    t.outbox.kick();
    await t.advance(10 * RETRY_BASE_MS);
    expect(t.calls).toHaveLength(2);
  });

  it('is settled by its own echo arriving before the answer (matched by client_id, post and text), once', async () => {
    const t = setup(['hold']);
    const entry = await t.outbox.add({ conversationId: 12, text: 'Halo', quotedMessageId: null, comment: target });
    await expect.poll(() => t.holds.length).toBe(1);
    // Someone else's comment with the same client_id, or a comment on another post, is not ours.
    await t.outbox.settleComment({ ...stored(t.calls[0]!), user_id: 99 });
    await t.outbox.settleComment({ ...stored(t.calls[0]!), post_id: 41 });
    expect(t.outbox.current).toHaveLength(1);
    await t.outbox.settleComment(stored(t.calls[0]!));
    expect(t.outbox.current).toEqual([]);
    t.holds[0]!();
    await expect.poll(() => t.storedComments.length).toBe(1);
    expect(t.calls).toHaveLength(1);
    expect(entry.clientId).toBe(t.calls[0]?.clientId);
  });

  it('a refused comment is failed with the server’s message, kept for a retry by hand', async () => {
    const t = setup(['refused', 'ok']);
    const entry = await t.outbox.add({ conversationId: 12, text: 'Boleh?', quotedMessageId: null, comment: target });
    await expect.poll(() => t.outbox.current[0]?.status).toBe('failed');
    expect(t.outbox.current[0]?.error?.message).toBe('You are not a member of this channel');
    await t.advance(10 * RETRY_BASE_MS);
    expect(t.calls).toHaveLength(1);
    await t.outbox.retrySend(entry.localId);
    await expect.poll(() => t.outbox.current.length).toBe(0);
    expect(t.calls).toHaveLength(2);
  });

  it('a message echo never settles a comment, nor a reply’s echo a comment on the post', async () => {
    const t = setup(['hold']);
    await t.outbox.add({ conversationId: 12, text: 'same text', quotedMessageId: null, comment: target });
    await expect.poll(() => t.holds.length).toBe(1);
    const clientId = t.calls[0]?.clientId ?? 0;
    await t.outbox.settle({ id: 1, conversation_id: 12, client_id: clientId, user_id: SELF, message: 'same text' } as never);
    expect(t.outbox.current).toHaveLength(1);
    // The same text and client_id under another parent (or on the post itself) is another comment.
    await t.outbox.settleComment({ ...stored(t.calls[0]!), parent_comment_id: null });
    await t.outbox.settleComment({ ...stored(t.calls[0]!), parent_comment_id: 999 });
    expect(t.outbox.current).toHaveLength(1);
  });

  it('a comment echo never settles a message that drew the same client_id and text', async () => {
    const storage = new MemoryStorage();
    const rest = { sendMessage: () => new Promise(() => undefined) } as unknown as RestClient;
    const outbox = new Outbox({ storage, rest: () => rest, clock: manualClock().clock, userId: () => SELF, onStored: () => undefined });
    const entry = await outbox.add({ conversationId: 12, text: 'Mantap!', quotedMessageId: null });
    await outbox.settleComment(stored({ postId: 40, message: 'Mantap!', clientId: entry.clientId }));
    expect(outbox.current.map((e) => e.localId)).toEqual([entry.localId]);
  });
});
