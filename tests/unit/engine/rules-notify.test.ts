import { describe, expect, it } from 'vitest';
import { notificationBody, shouldNotify } from '../../../src/engine/rules/notify';
import type { NotifyInput } from '../../../src/engine/rules/notify';
import { ALICE, SELF } from './state.fixtures';

const due: NotifyInput = {
  message: { user_id: ALICE },
  selfId: SELF,
  settings: { notificationsEnable: true },
  permission: 'granted',
  openVisibleFocused: false,
  muted: false,
};

describe('shouldNotify', () => {
  it('notifies another user’s message when enabled, granted and not in view', () => {
    expect(shouldNotify(due)).toBe(true);
  });

  it('never for own messages', () => {
    expect(shouldNotify({ ...due, message: { user_id: SELF } })).toBe(false);
  });

  it('not when notifications are off in the settings', () => {
    expect(shouldNotify({ ...due, settings: { notificationsEnable: false } })).toBe(false);
  });

  it('only with permission granted', () => {
    expect(shouldNotify({ ...due, permission: 'default' })).toBe(false);
    expect(shouldNotify({ ...due, permission: 'denied' })).toBe(false);
  });

  it('not for the chat open in a visible, focused tab', () => {
    expect(shouldNotify({ ...due, openVisibleFocused: true })).toBe(false);
  });

  it('not for a muted chat', () => {
    expect(shouldNotify({ ...due, muted: true })).toBe(false);
  });
});

describe('notificationBody', () => {
  it('keeps text of up to 100 characters', () => {
    const hundred = 'a'.repeat(100);
    expect(notificationBody(hundred)).toBe(hundred);
    expect(notificationBody('hello')).toBe('hello');
  });

  it('truncates at 100 characters with an ellipsis', () => {
    expect(notificationBody('b'.repeat(101))).toBe(`${'b'.repeat(100)}…`);
  });

  it('counts an emoji as one character and never cuts one in half', () => {
    const text = '👍🏽'.repeat(120);
    const body = notificationBody(text);
    expect(body).toBe(`${'👍🏽'.repeat(100)}…`);
  });
});
