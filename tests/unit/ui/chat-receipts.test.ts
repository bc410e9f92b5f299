import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/protocol/entities';
import { type ReceiptMarksView, receiptLevels, receiptStatus, watermarksOf } from '../../../src/ui/chat/message/receiptStatus';

const own = (...ids: number[]) => ids.map((id) => ({ id, user_id: 1 }) as Message);

/** The marks of the chat whose own messages are `ownMessages`. */
const watermarks = (ownMessages: readonly Message[], marks: ReceiptMarksView) =>
  watermarksOf(marks, (id) => ownMessages.some((m) => m.id === id));

describe('receipt marks on own messages', () => {
  it('counts a read of a later message as a read of the earlier ones', () => {
    const marks = watermarks(own(10, 11, 12), { 11: { delivered: [2], read: [2] } });
    expect([10, 11, 12].map((id) => receiptStatus(id, receiptLevels(marks, [2])))).toEqual(['read', 'read', 'sent']);
  });

  it('shows delivered until it is read', () => {
    const marks = watermarks(own(10, 11), { 10: { delivered: [2], read: [] }, 11: { delivered: [2], read: [] } });
    expect(receiptStatus(11, receiptLevels(marks, [2]))).toBe('delivered');
  });

  it('in a group, needs every other member', () => {
    const marks = watermarks(own(10), { 10: { delivered: [2, 3], read: [2] } });
    expect(receiptStatus(10, receiptLevels(marks, [2, 3]))).toBe('delivered');
    expect(receiptStatus(10, receiptLevels(marks, [2, 3, 4]))).toBe('sent');
    expect(receiptStatus(10, receiptLevels(watermarks(own(10), { 10: { delivered: [], read: [2, 3] } }), [2, 3]))).toBe('read');
  });

  it('ignores receipts of messages that are not this chat’s own', () => {
    const marks = watermarks(own(10), { 50: { delivered: [2], read: [2] } });
    expect(receiptStatus(10, receiptLevels(marks, [2]))).toBe('sent');
    expect(receiptStatus(10, receiptLevels(marks, []))).toBe('sent');
  });
});
