import { describe, expect, it } from 'vitest';
import { createMessageWindowSelector } from '../../../src/engine/state/messageWindow';
import { ctx, frame, loadedState, message, run } from './state.fixtures';
import { reduce } from '../../../src/engine/state/reduce';

/** The window view kept up incrementally, and the pages that join it only where they fit (issue 11). */

const page = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => message(from + i));

describe('the message window view', () => {
  it('a new message extends the view: every other message keeps its object, and so would every row', () => {
    const select = createMessageWindowSelector(10);
    const state = loadedState();
    const first = select(state);
    const next = select(reduce(state, frame('conversation_message', { conversation_id: 10, message: message(4) }, 1), ctx()).state);
    expect(next.messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    first.messages.forEach((m, i) => expect(next.messages[i]).toBe(m));
  });

  it('an older page in front and a trim keep the objects of the messages that stay', () => {
    const select = createMessageWindowSelector(10);
    const state = run(loadedState(), [{ type: 'messagesLoaded', conversationId: 10, messages: page(50, 69), older: false, pageSize: 20 }]).state;
    const first = select(state);
    const older = run(state, [{ type: 'messagesLoaded', conversationId: 10, messages: page(30, 49), older: true, pageSize: 20, before: 50 }]).state;
    const grown = select(older);
    expect(grown.messages.map((m) => m.id)).toEqual(page(30, 69).map((m) => m.id));
    first.messages.forEach((m, i) => expect(grown.messages[i + 20]).toBe(m));
    const trimmed = select(run(older, [{ type: 'windowTrimmed', conversationId: 10, from: 30, to: 59 }]).state);
    expect(trimmed.messages.map((m) => m.id)).toEqual(page(30, 59).map((m) => m.id));
    trimmed.messages.forEach((m, i) => expect(m).toBe(grown.messages[i]));
    expect(trimmed.hasNewer).toBe(true);
  });

  it('an edited message is the only new object', () => {
    const select = createMessageWindowSelector(10);
    const state = loadedState();
    const first = select(state);
    const edited = message(2, { message: 'changed', edited_at: 5 });
    const next = select(reduce(state, frame('conversation_message_edited', { conversation_id: 10, message: edited }, 1), ctx()).state);
    expect(next.messages[0]).toBe(first.messages[0]);
    expect(next.messages[1]).toEqual(edited);
    expect(next.messages[2]).toBe(first.messages[2]);
  });

  it('drops an older page asked for before a message that is no longer the window’s first (no hole)', () => {
    const state = run(loadedState(), [{ type: 'messagesLoaded', conversationId: 10, messages: page(50, 69), older: false, pageSize: 20 }]).state;
    const trimmed = run(state, [{ type: 'windowTrimmed', conversationId: 10, from: 55, to: 69 }]).state;
    // The page before 50 came after the window was trimmed to start at 55.
    const late = run(trimmed, [{ type: 'messagesLoaded', conversationId: 10, messages: page(30, 49), older: true, pageSize: 20, before: 50 }]).state;
    expect(late).toBe(trimmed);
    expect(trimmed.windows[10]).toMatchObject({ hasOlder: true });
    expect(trimmed.messages[10]?.[50]).toBeUndefined();
  });

  it('a newer page joins only the window that still ends where it was asked for', () => {
    const state = run(loadedState(), [
      { type: 'messagesLoaded', conversationId: 10, messages: page(50, 69), older: false, pageSize: 20 },
      { type: 'windowTrimmed', conversationId: 10, from: 50, to: 59 },
    ]).state;
    const joined = run(state, [{ type: 'newerMessagesLoaded', conversationId: 10, messages: page(55, 69), after: 59 }]).state;
    expect(joined.windows[10]?.ids).toEqual(page(50, 69).map((m) => m.id));
    const stale = run(state, [{ type: 'newerMessagesLoaded', conversationId: 10, messages: page(65, 69), after: 64 }]).state;
    expect(stale).toBe(state);
  });
});
