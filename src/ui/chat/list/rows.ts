import type { OutboxEntry } from '../../../engine/api';
import type { Message } from '../../../protocol/entities';
import { fromEpochSeconds, sameDay } from '../../common/time';

/**
 * What the virtualised list shows, top to bottom: day separators, the loaded messages (oldest first) and
 * the outbox's pending and failed sends of this chat. Each row has a key that stays with what it shows, so
 * the list keeps measured heights and the anchor when older pages arrive above.
 */
export type ChatRow =
  | { kind: 'day'; key: string; date: Date }
  | { kind: 'message'; key: string; message: Message; previous: Message | null }
  | { kind: 'outbox'; key: string; entry: OutboxEntry };

/**
 * A separator goes above the first message of each day. While older history is still on the server, the
 * top message's day may have begun earlier, so it gets no separator until that page is here: a separator
 * appearing there later would otherwise say "Today" twice. Separators are keyed by the message below them.
 */
export function buildRows(
  messages: readonly Message[],
  hasOlder: boolean,
  outbox: readonly OutboxEntry[],
): ChatRow[] {
  const rows: ChatRow[] = [];
  let previous: Message | null = null;
  let previousDate: Date | null = null;
  for (const message of messages) {
    const date = fromEpochSeconds(message.created_at);
    const first = previousDate === null;
    if ((first && !hasOlder) || (previousDate !== null && !sameDay(previousDate, date))) {
      rows.push({ kind: 'day', key: `day-${message.id}`, date });
    }
    rows.push({ kind: 'message', key: `m-${message.id}`, message, previous });
    previous = message;
    previousDate = date;
  }
  let lastDate = previousDate;
  for (const entry of outbox) {
    const date = new Date(entry.createdAt);
    if (lastDate === null ? !hasOlder : !sameDay(lastDate, date)) {
      rows.push({ kind: 'day', key: `day-${entry.localId}`, date });
    }
    rows.push({ kind: 'outbox', key: `o-${entry.localId}`, entry });
    lastDate = date;
  }
  return rows;
}
