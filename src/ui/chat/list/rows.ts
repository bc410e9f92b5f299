import type { OutboxEntry } from '../../../engine/api';
import type { Message } from '../../../protocol/entities';
import { fromEpochSeconds, sameDay } from '../../common/time';
import { isEventMessage } from '../message/eventText';

/**
 * What the virtualised list shows, top to bottom: day separators, the loaded messages (oldest first) and
 * the outbox's pending and failed sends of this chat. Each row has a key that stays with what it shows, so
 * the list keeps measured heights and the anchor when older pages arrive above.
 */
export type ChatRow =
  | { kind: 'day'; key: string; date: Date }
  /** Above the first message that was unread when the chat opened: how many were (docs/ui.md). */
  | { kind: 'unread'; key: string; count: number }
  | { kind: 'message'; key: string; message: Message; runStart: boolean }
  | { kind: 'outbox'; key: string; entry: OutboxEntry };

/** The rows of the loaded messages, and what they were built from (so the next build can extend them). */
export interface MessageRows {
  messages: readonly Message[];
  hasOlder: boolean;
  unread: UnreadDivider | null;
  rows: readonly ChatRow[];
  /**
   * Each row's index by key. Extending a build adds to the same map, so an earlier build's map may also hold
   * the later rows' keys: look keys up through `rowIndex`, which checks the row is there.
   */
  index: Map<string, number>;
}

/** Where the unread divider goes: above the first message at or after `messageId`, saying `count`. */
export interface UnreadDivider {
  messageId: number;
  count: number;
}

const startsRun = (message: Message, previous: Message | null) =>
  previous === null || previous.user_id !== message.user_id || isEventMessage(previous);

/** Whether `messages` begins with every message of `last`, object for object. */
function extends_(messages: readonly Message[], last: readonly Message[]): boolean {
  if (messages.length < last.length) return false;
  for (let i = last.length - 1; i >= 0; i--) if (messages[i] !== last[i]) return false;
  return true;
}

/**
 * The rows of `messages`. A separator goes above the first message of each day. While older history is still
 * on the server, the top message's day may have begun earlier, so it gets no separator until that page is
 * here: a separator appearing there later would otherwise say "Today" twice. Separators are keyed by the
 * message below them. When the messages only grew at the end (a new message), the rows of `last` are kept
 * and only the new ones are made (docs/ui.md "One render per change"). The unread divider goes above the first message at or after its
 * message, below that day's separator, where the message before it is loaded (or the chat starts there, or it is
 * that very message).
 */
export function buildMessageRows(
  messages: readonly Message[],
  hasOlder: boolean,
  last?: MessageRows,
  unread: UnreadDivider | null = null,
): MessageRows {
  const reuse =
    last !== undefined &&
    last.hasOlder === hasOlder &&
    last.unread === unread &&
    last.messages.length > 0 &&
    extends_(messages, last.messages);
  const rows: ChatRow[] = reuse ? [...last.rows] : [];
  const index = reuse ? last.index : new Map<string, number>();
  const push = (row: ChatRow) => {
    index.set(row.key, rows.length);
    rows.push(row);
  };
  let previous: Message | null = reuse ? (last.messages[last.messages.length - 1] ?? null) : null;
  let previousDate: Date | null = previous ? fromEpochSeconds(previous.created_at) : null;
  for (let i = reuse ? last.messages.length : 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    const date = fromEpochSeconds(message.created_at);
    const first = previousDate === null;
    if ((first && !hasOlder) || (previousDate !== null && !sameDay(previousDate, date))) {
      push({ kind: 'day', key: `day-${message.id}`, date });
    }
    if (unread && message.id >= unread.messageId && (previous ? previous.id < unread.messageId : !hasOlder || message.id === unread.messageId)) {
      push({ kind: 'unread', key: `unread-${unread.messageId}`, count: unread.count });
    }
    push({ kind: 'message', key: `m-${message.id}`, message, runStart: startsRun(message, previous) });
    previous = message;
    previousDate = date;
  }
  return { messages, hasOlder, unread, rows, index };
}

/**
 * Where the row with `key` is in `rows` (the message rows with the outbox's among and after them), or
 * undefined. A message row is at its index in the message rows, or as many further down as outbox rows were
 * put among them (`withOutbox`: only failed sends, so a few).
 */
export function rowIndex(messageRows: MessageRows, rows: readonly ChatRow[], key: string): number | undefined {
  const found = messageRows.index.get(key);
  const extra = rows.length - messageRows.rows.length;
  if (found !== undefined && found < messageRows.rows.length) {
    for (let i = found; i <= found + extra && i < rows.length; i++) if (rows[i]?.key === key) return i;
  }
  for (let i = messageRows.rows.length; i < rows.length; i++) if (rows[i]?.key === key) return i;
  for (let i = 0; i < rows.length; i++) if (rows[i]?.key === key) return i;
  return undefined;
}

/**
 * Where a failed send goes among the message rows: before the first message written after it (epoch ms
 * against the server's seconds), so it stays where it was written while later messages go below it (docs/ui.md
 * "Sending"); null when none was (it goes at the end, as pending sends do). Above a separator that begins
 * another day than the send's.
 */
function placeAmong(messageRows: MessageRows, entry: OutboxEntry): number | null {
  const { messages, rows } = messageRows;
  let low = 0;
  let high = messages.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (Number((messages[mid] as Message).created_at) * 1000 > entry.createdAt) high = mid;
    else low = mid + 1;
  }
  const next = messages[low];
  if (!next) return null;
  const at = messageRows.index.get(`m-${next.id}`);
  if (at === undefined || rows[at]?.key !== `m-${next.id}`) return null;
  // Above the unread divider (it marks the first unread message, which the send is not), and above a day
  // separator that begins another day than the send's.
  const before = rows[at - 1]?.kind === 'unread' ? at - 1 : at;
  const above = rows[before - 1];
  return above?.kind === 'day' && !sameDay(above.date, new Date(entry.createdAt)) ? before - 1 : before;
}

/**
 * The message rows with the outbox's sends of this chat: a failed send where it was written (`placeAmong`),
 * the rest after the messages (each day they start gets its separator).
 */
export function withOutbox(messageRows: MessageRows, outbox: readonly OutboxEntry[]): readonly ChatRow[] {
  if (outbox.length === 0) return messageRows.rows;
  const placed = new Map<number, OutboxEntry[]>();
  const after: OutboxEntry[] = [];
  for (const entry of outbox) {
    const at = entry.status === 'failed' ? placeAmong(messageRows, entry) : null;
    if (at === null) after.push(entry);
    else placed.set(at, [...(placed.get(at) ?? []), entry]);
  }
  const rows: ChatRow[] =
    placed.size === 0
      ? [...messageRows.rows]
      : messageRows.rows.flatMap((row, i) => [
          ...(placed.get(i) ?? []).map((entry): ChatRow => ({ kind: 'outbox', key: `o-${entry.localId}`, entry })),
          row,
        ]);
  const last = messageRows.messages[messageRows.messages.length - 1];
  let lastDate = last ? fromEpochSeconds(last.created_at) : null;
  for (const entry of after) {
    const date = new Date(entry.createdAt);
    if (lastDate === null ? !messageRows.hasOlder : !sameDay(lastDate, date)) {
      rows.push({ kind: 'day', key: `day-${entry.localId}`, date });
    }
    rows.push({ kind: 'outbox', key: `o-${entry.localId}`, entry });
    lastDate = date;
  }
  return rows;
}

/** Every row at once (tests, and callers without an earlier build). */
export function buildRows(
  messages: readonly Message[],
  hasOlder: boolean,
  outbox: readonly OutboxEntry[],
  unread: UnreadDivider | null = null,
): ChatRow[] {
  return [...withOutbox(buildMessageRows(messages, hasOlder, undefined, unread), outbox)];
}

/** A row's message, for the rows that hold one. */
export const rowMessage = (row: ChatRow | undefined): Message | null => (row?.kind === 'message' ? row.message : null);

/** The first message row at or after `messageId` (a search hit that is gone), else the last row. */
export function nearestIndex(rows: readonly ChatRow[], messageId: number): number | undefined {
  const at = rows.findIndex((row) => row.kind === 'message' && row.message.id >= messageId);
  return at >= 0 ? at : rows.length > 0 ? rows.length - 1 : undefined;
}

/** A loaded message by id, found by halving (messages are in id order): no index to rebuild per change. */
export function findLoaded(messages: readonly Message[], id: number): Message | undefined {
  let low = 0;
  let high = messages.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const message = messages[mid] as Message;
    if (message.id === id) return message;
    if (message.id < id) low = mid + 1;
    else high = mid - 1;
  }
  return undefined;
}
