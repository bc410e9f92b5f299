import type { ReceiptMarksView } from '../../../engine/api';
import { useQuery } from '../../hooks/useQuery';

const NONE: ReceiptMarksView = {};

/** The receipts other people sent for this chat's own messages (the engine's `receipts` query). */
export function useReceiptMarks(conversationId: number): ReceiptMarksView {
  return useQuery((engine) => engine.receipts(conversationId), [conversationId], NONE);
}
