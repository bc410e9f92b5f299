import { describe, expect, it } from 'vitest';
import { canEdit, editDeadline, editTarget } from '../../../src/engine/rules/edit';
import { EDIT_WINDOW_MS } from '../../../src/protocol/constants';
import { ALICE, SELF, message } from './state.fixtures';

const created = 1_700_000_000;
const own = message(1, { user_id: SELF, created_at: String(created) });
const createdMs = created * 1000;

describe('canEdit (spec §4 Editing)', () => {
  it('the window is 45 minutes', () => {
    expect(EDIT_WINDOW_MS).toBe(2_700_000);
    expect(editDeadline(own)).toBe(createdMs + 2_700_000);
  });

  it('allows exactly 45:00 and refuses 45:00.001', () => {
    expect(canEdit(own, SELF, createdMs)).toBe(true);
    expect(canEdit(own, SELF, createdMs + 2_700_000)).toBe(true);
    expect(canEdit(own, SELF, createdMs + 2_700_001)).toBe(false);
  });

  it('own messages only, never system ones, never signed out', () => {
    expect(canEdit(message(1, { user_id: ALICE, created_at: String(created) }), SELF, createdMs)).toBe(false);
    expect(canEdit({ ...own, type: 'system' }, SELF, createdMs)).toBe(false);
    expect(canEdit(own, null, createdMs)).toBe(false);
    expect(canEdit({ ...own, created_at: 'garbage' }, SELF, createdMs)).toBe(false);
  });
});

describe('editTarget (the Up arrow)', () => {
  const now = createdMs + 50 * 60_000;
  const minutesAgo = (id: number, minutes: number, userId = SELF) =>
    message(id, { user_id: userId, created_at: String((now - minutes * 60_000) / 1000) });

  it('is the latest own editable message', () => {
    const messages = [minutesAgo(1, 40), minutesAgo(2, 30), minutesAgo(3, 20, ALICE), minutesAgo(4, 10, ALICE)];
    expect(editTarget(messages, SELF, now)?.id).toBe(2);
  });

  it('skips own system messages and is null when all own messages are too old', () => {
    expect(editTarget([minutesAgo(1, 10), { ...minutesAgo(2, 5), type: 'system' }], SELF, now)?.id).toBe(1);
    expect(editTarget([minutesAgo(1, 46), minutesAgo(2, 1, ALICE)], SELF, now)).toBeNull();
    expect(editTarget([], SELF, now)).toBeNull();
  });
});
