import { describe, expect, it } from 'vitest';
import { canDeleteForEverybody, canHide } from '../../../src/engine/rules/delete';
import { ALICE, SELF, conversation, message } from './state.fixtures';

const group = conversation(10, { is_group: true, member: { is_owner: false, is_admin: false, permissions: { create_posts: false }, mute: null } });
const groupAsAdmin = conversation(10, { is_group: true });
const oneToOne = conversation(11, { is_group: false, admins: [] });

describe('delete for everybody (spec §6)', () => {
  it('the owner may, in groups and one-to-one chats', () => {
    const own = message(1, { user_id: SELF });
    expect(canDeleteForEverybody(own, group, SELF)).toBe(true);
    expect(canDeleteForEverybody(own, oneToOne, SELF)).toBe(true);
  });

  it('in groups admins may delete others’ messages; members may not', () => {
    const theirs = message(1, { user_id: ALICE });
    expect(canDeleteForEverybody(theirs, groupAsAdmin, SELF)).toBe(true);
    expect(canDeleteForEverybody(theirs, group, SELF)).toBe(false);
  });

  it('in a one-to-one chat only the owner', () => {
    const asAdmin = { ...oneToOne, member: { ...oneToOne.member, is_admin: true } };
    expect(canDeleteForEverybody(message(1, { user_id: ALICE }), asAdmin, SELF)).toBe(false);
  });

  it('system messages cannot be deleted for everybody', () => {
    expect(canDeleteForEverybody(message(1, { user_id: SELF, type: 'system' }), groupAsAdmin, SELF)).toBe(false);
  });
});

describe('delete for me (hide)', () => {
  it('any message but a pinned one', () => {
    expect(canHide(message(1))).toBe(true);
    expect(canHide(message(1, { type: 'system' }))).toBe(true);
    expect(canHide(message(1, { pinned: true }))).toBe(false);
  });
});
