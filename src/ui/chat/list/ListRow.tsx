import type { Message } from '../../../protocol/entities';
import type { ReceiptLevels } from '../message/receiptStatus';
import { DaySeparator } from './DaySeparator';
import { LoadedMessageRow } from './LoadedMessageRow';
import { PendingRow } from './PendingRow';
import { type ChatRow, rowMessage } from './rows';
import { UnreadDivider } from './UnreadDivider';
import type { useSlotRefs } from './useSlotRefs';

/**
 * One virtualised row: the slot the virtualiser places and measures (read marks watch it for other people's
 * messages), and inside it the row of its kind.
 */
export function ListRow(props: {
  row: ChatRow;
  index: number;
  start: number;
  slotRef: ReturnType<typeof useSlotRefs>;
  highlight: number | null;
  found: number | null;
  loaded: readonly Message[];
  selfId: number;
  levels: ReceiptLevels;
  today: Date;
}) {
  const { row, index, start, slotRef, highlight, found, loaded, selfId, levels, today } = props;
  const message = rowMessage(row);
  const watch = message !== null && message.user_id !== selfId;
  return (
    <div
      data-index={index}
      data-row-kind={row.kind}
      className={`chat-row-slot${message !== null && message.id === highlight ? ' chat-row-highlight' : ''}${
        message !== null && message.id === found ? ' chat-row-found' : ''
      }`}
      style={{ transform: `translateY(${start}px)` }}
      ref={slotRef(row.key, watch ? message.id : null)}
    >
      {row.kind === 'day' ? (
        <DaySeparator date={row.date} today={today} />
      ) : row.kind === 'unread' ? (
        <UnreadDivider count={row.count} />
      ) : row.kind === 'message' ? (
        <LoadedMessageRow
          message={row.message}
          runStart={row.runStart}
          loaded={loaded}
          selfId={selfId}
          levels={levels}
          today={today}
        />
      ) : (
        <PendingRow entry={row.entry} />
      )}
    </div>
  );
}
