import type { Message } from '../../../protocol/entities';
import { RowBoundary } from '../../common/RowBoundary';
import { MessageRow } from '../message/MessageRow';
import { receiptStatus, type ReceiptLevels } from '../message/receiptStatus';
import { findLoaded } from './rows';

/**
 * A message the engine has loaded: its quote looked up among the loaded messages, and for the reader's own
 * its receipt from the levels worked out once for the whole list.
 */
export function LoadedMessageRow(props: {
  message: Message;
  runStart: boolean;
  loaded: readonly Message[];
  selfId: number;
  levels: ReceiptLevels;
  today: Date;
}) {
  const { message, runStart, loaded, selfId, levels, today } = props;
  return (
    <RowBoundary kind="message" resetKey={message}>
      <MessageRow
        message={message}
        runStart={runStart}
        quoted={message.quoted !== null ? findLoaded(loaded, message.quoted) : undefined}
        receipt={message.user_id === selfId ? receiptStatus(message.id, levels) : null}
        today={today}
      />
    </RowBoundary>
  );
}
