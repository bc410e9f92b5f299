import { type Observable, of } from 'rxjs';
import type { TabEngine } from '../../../engine/api';
import { useQuery } from '../../hooks/useQuery';
import type { ReceiptMarksView } from './receiptStatus';

/**
 * The receipts other people sent for this chat's own messages. The engine keeps them (EngineState.receipts,
 * fed by `message_dlr2`) but api.ts does not expose them yet: until it has
 * `receipts(conversationId): Observable<ReceiptMarksView>`, no marks arrive and own messages show "Sent".
 */
type WithReceipts = TabEngine & { receipts?: (conversationId: number) => Observable<ReceiptMarksView> };

const NONE: ReceiptMarksView = {};

export function useReceiptMarks(conversationId: number): ReceiptMarksView {
  return useQuery(
    (engine) => {
      const query = (engine as WithReceipts).receipts;
      return typeof query === 'function' ? query.call(engine, conversationId) : of(NONE);
    },
    [conversationId],
    NONE,
  );
}
