import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../../src/engine/api';
import type { Message } from '../../../src/protocol/entities';
import { buildMessageRows, buildRows, findLoaded, rowIndex, withOutbox } from '../../../src/ui/chat/list/rows';

const at = (y: number, m: number, d: number, h = 12) => String(Math.floor(new Date(y, m - 1, d, h).getTime() / 1000));
const msg = (id: number, created_at: string): Message =>
  ({ id, created_at, user_id: 1, message: `m${id}`, type: 'text', attachment: null, quoted: null }) as Message;
const entry = (localId: string, createdAt: number): OutboxEntry =>
  ({ localId, createdAt, conversationId: 1, userId: 1, text: localId, status: 'pending' }) as OutboxEntry;

describe('list rows', () => {
  it('puts a day separator above the first message of each day, keyed by that message', () => {
    const rows = buildRows([msg(1, at(2026, 1, 1, 9)), msg(2, at(2026, 1, 1, 18)), msg(3, at(2026, 1, 2))], false, []);
    expect(rows.map((r) => r.key)).toEqual(['day-1', 'm-1', 'm-2', 'day-3', 'm-3']);
    // A run of one sender's messages starts at its first message only.
    expect(rows.map((r) => (r.kind === 'message' ? r.runStart : null))).toEqual([null, true, false, null, false]);
  });

  it('extends the last build when messages only came at the end: the earlier rows stay the same objects', () => {
    const messages = [msg(1, at(2026, 1, 1, 9)), msg(2, at(2026, 1, 1, 18))];
    const first = buildMessageRows(messages, false);
    const next = buildMessageRows([...messages, msg(3, at(2026, 1, 2))], false, first);
    expect(next.rows.slice(0, first.rows.length).every((row, i) => row === first.rows[i])).toBe(true);
    expect(next.rows.map((r) => r.key)).toEqual(['day-1', 'm-1', 'm-2', 'day-3', 'm-3']);
    // An older page in front builds every row again, as its separators and runs may change.
    const older = buildMessageRows([msg(0, at(2026, 1, 1, 8)), ...messages], false, first);
    expect(older.rows.map((r) => r.key)).toEqual(['day-0', 'm-0', 'm-1', 'm-2']);
    expect(older.rows[2]).not.toBe(first.rows[1]);
  });

  it('puts the unread divider above the first unread message, below its day separator, where the message before it is loaded', () => {
    const unread = { messageId: 3, count: 2 };
    const messages = [msg(1, at(2026, 1, 1, 9)), msg(2, at(2026, 1, 1, 18)), msg(3, at(2026, 1, 2)), msg(4, at(2026, 1, 2, 13))];
    expect(buildRows(messages, false, [], unread).map((r) => r.key)).toEqual(['day-1', 'm-1', 'm-2', 'day-3', 'unread-3', 'm-3', 'm-4']);
    expect(buildRows(messages, false, [], unread)[4]).toMatchObject({ kind: 'unread', count: 2 });
    // The first unread message deleted: above the next one.
    expect(buildRows([messages[0], messages[1], messages[3]] as Message[], false, [], unread).map((r) => r.key)).toEqual([
      'day-1',
      'm-1',
      'm-2',
      'day-4',
      'unread-3',
      'm-4',
    ]);
    // The top of the loaded rows: there when it is that very message, not when older ones are still on the server.
    expect(buildRows(messages.slice(2), true, [], unread).map((r) => r.key)).toEqual(['unread-3', 'm-3', 'm-4']);
    expect(buildRows(messages.slice(3), true, [], unread).map((r) => r.key)).toEqual(['m-4']);
    // Another divider (or none) builds every row again; the same one extends as messages come.
    const first = buildMessageRows(messages, false, undefined, unread);
    expect(buildMessageRows(messages, false, first, null).rows.map((r) => r.key)).not.toContain('unread-3');
    const next = buildMessageRows([...messages, msg(5, at(2026, 1, 2, 14))], false, first, unread);
    expect(next.rows[4]).toBe(first.rows[4]);
  });

  it('finds a loaded message by id without an index', () => {
    const messages = [1, 4, 9, 12, 30].map((id) => msg(id, at(2026, 1, 1)));
    expect(findLoaded(messages, 12)?.id).toBe(12);
    expect(findLoaded(messages, 1)?.id).toBe(1);
    expect(findLoaded(messages, 5)).toBeUndefined();
  });

  it('gives the top message no separator while older messages are still on the server', () => {
    const rows = buildRows([msg(5, at(2026, 1, 1)), msg(6, at(2026, 1, 2))], true, []);
    expect(rows.map((r) => r.key)).toEqual(['m-5', 'day-6', 'm-6']);
  });

  it('puts pending and failed sends last, with a separator when their day is new', () => {
    const today = new Date(2026, 0, 3, 10).getTime();
    const rows = buildRows([msg(1, at(2026, 1, 2))], false, [entry('a', today), entry('b', today + 1000)]);
    expect(rows.map((r) => r.key)).toEqual(['day-1', 'm-1', 'day-a', 'o-a', 'o-b']);
    expect(buildRows([], false, [entry('a', today)]).map((r) => r.key)).toEqual(['day-a', 'o-a']);
  });

  it('keeps a failed send where it was written, above the messages that came after it', () => {
    const failed = (localId: string, createdAt: number): OutboxEntry => ({ ...entry(localId, createdAt), status: 'failed' });
    const noon = new Date(2026, 0, 3, 12).getTime();
    const messages = [msg(1, at(2026, 1, 3, 11)), msg(2, at(2026, 1, 3, 13)), msg(3, at(2026, 1, 4, 9))];
    const messageRows = buildMessageRows(messages, false);
    const rows = withOutbox(messageRows, [failed('f', noon), entry('p', noon + 1), failed('g', new Date(2026, 0, 3, 20).getTime())]);
    // 'g' was written on the 3rd, after message 2: above the 4th's separator. A pending send stays last.
    expect(rows.map((r) => r.key)).toEqual(['day-1', 'm-1', 'o-f', 'm-2', 'o-g', 'day-3', 'm-3', 'day-p', 'o-p']);
    // Every row is found by its key, the message rows moved down by what was put among them too.
    for (const [i, row] of rows.entries()) expect(rowIndex(messageRows, rows, row.key)).toBe(i);
    // Written before the first unread message: above its divider, and above the day that divider begins.
    const divided = buildMessageRows(messages, false, undefined, { messageId: 3, count: 1 });
    const rowsWithDivider = withOutbox(divided, [failed('g', new Date(2026, 0, 3, 20).getTime())]);
    expect(rowsWithDivider.map((r) => r.key)).toEqual(['day-1', 'm-1', 'm-2', 'o-g', 'day-3', 'unread-3', 'm-3']);
    for (const [i, row] of rowsWithDivider.entries()) expect(rowIndex(divided, rowsWithDivider, row.key)).toBe(i);
    // A failed send newer than every message is last, as before.
    expect(withOutbox(messageRows, [failed('h', Date.now())]).map((r) => r.key).slice(-1)).toEqual(['o-h']);
  });
});
