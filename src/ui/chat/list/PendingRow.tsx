import type { OutboxEntry } from '../../../engine/api';
import { RowBoundary } from '../../common/RowBoundary';
import { OutboxRow } from '../message/OutboxRow';

/** A send of the reader's still in the outbox (pending or failed), after the loaded messages. */
export function PendingRow({ entry }: { entry: OutboxEntry }) {
  return (
    <RowBoundary kind="message" resetKey={entry}>
      <OutboxRow entry={entry} />
    </RowBoundary>
  );
}
