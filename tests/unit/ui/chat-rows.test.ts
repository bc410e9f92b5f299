import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../../src/engine/api';
import type { Message } from '../../../src/protocol/entities';
import { buildRows } from '../../../src/ui/chat/list/rows';

const at = (y: number, m: number, d: number, h = 12) => String(Math.floor(new Date(y, m - 1, d, h).getTime() / 1000));
const msg = (id: number, created_at: string): Message =>
  ({ id, created_at, user_id: 1, message: `m${id}`, type: 'text', attachment: null, quoted: null }) as Message;
const entry = (localId: string, createdAt: number): OutboxEntry =>
  ({ localId, createdAt, conversationId: 1, userId: 1, text: localId, status: 'pending' }) as OutboxEntry;

describe('list rows', () => {
  it('puts a day separator above the first message of each day, keyed by that message', () => {
    const rows = buildRows([msg(1, at(2026, 1, 1, 9)), msg(2, at(2026, 1, 1, 18)), msg(3, at(2026, 1, 2))], false, []);
    expect(rows.map((r) => r.key)).toEqual(['day-1', 'm-1', 'm-2', 'day-3', 'm-3']);
    const second = rows[2];
    expect(second?.kind === 'message' ? second.previous?.id : null).toBe(1);
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
});
