import type { ReceiptStatus } from './receiptStatus';
import { useChatTexts } from '../ChatContext';

/** Ticks on an own message: one when sent, two when delivered, two coloured when read (with their words). */
export function ReceiptMark({ status }: { status: ReceiptStatus }) {
  const { t } = useChatTexts();
  const label =
    status === 'read' ? t('chat.receipt.read') : status === 'delivered' ? t('chat.receipt.delivered') : t('chat.receipt.sent');
  return (
    <span className={`msg-receipt msg-receipt-${status}`} data-receipt={status} title={label}>
      <span aria-hidden="true">{status === 'sent' ? '✓' : '✓✓'}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
