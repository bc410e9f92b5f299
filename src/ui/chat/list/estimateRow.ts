import type { ChatRow } from './rows';

/**
 * A row's height before it is drawn and measured. Close guesses keep the first frame near its final layout;
 * a wrong one is corrected by the measurement, which the room above takes up (useScrollKeeping).
 */
export function estimateRow(row: ChatRow | undefined): number {
  if (row?.kind === 'day' || row?.kind === 'unread') return 40;
  if (row?.kind === 'outbox') return row.entry.attachment ? 220 : 64;
  const attachment = row?.message.attachment;
  return attachment && attachment.type !== 'event' ? 220 : 64;
}
