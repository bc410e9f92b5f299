import { BehaviorSubject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { ConversationListItem, EngineError } from '../../src/engine/api';
import { fakeEngine, renderApp, unmount } from './inbox-support';

afterEach(unmount);

const engineError = (status: number, message: string, call: string): EngineError => ({
  name: 'EngineError',
  status,
  message,
  fallback: message,
  call,
});

/** The main screen on `path`, where opening the chat fails with `error` and the engine knows no such chat. */
async function chatThatFails(path: string, error: EngineError | null, language: 'en' | 'sv' = 'en') {
  const fake = fakeEngine();
  const openConversation = vi.fn(() => (error ? Promise.reject(error) : Promise.resolve()));
  Object.assign(fake.engine, {
    conversation: () => new BehaviorSubject<ConversationListItem | null>(null),
    openConversation,
  });
  fake.refresh.next.resolve();
  const { router } = await renderApp(fake.asTab, path, language);
  const panel = page.getByRole('main');
  return { openConversation, router, panel };
}

describe('a chat that cannot be shown (spec §8, issue 10)', () => {
  it('says a chat that is not the user’s cannot be found, offers the chats list and no retry', async () => {
    const { router, panel } = await chatThatFails('/inbox/42', engineError(404, 'Conversation not found', 'getMessages'));
    await expect.element(panel.getByRole('alert')).toHaveTextContent(
      'This chat could not be found.It may have been deleted, or you are no longer a member of it.',
    );
    expect(document.querySelector('[data-chat-view]')?.getAttribute('data-chat-view')).toBe('not-found');
    // A retry cannot bring back a chat that does not exist.
    expect(panel.getByRole('button', { name: 'Retry' }).elements()).toHaveLength(0);
    const back = panel.getByRole('link', { name: 'Back to chats' });
    await expect.element(back).toHaveClass('mx-button');
    await userEvent.click(back);
    await expect.poll(() => router.state.location.pathname).toBe('/inbox');
  });

  it('says a chat that did not load failed, why, and offers a styled retry and the chats list', async () => {
    const { panel } = await chatThatFails('/inbox/42', engineError(500, 'Failed to fetch conversation', 'getConversation'));
    await expect.element(panel.getByRole('alert')).toHaveTextContent('Failed to load conversationFailed to fetch conversation');
    expect(document.querySelector('[data-chat-view]')?.getAttribute('data-chat-view')).toBe('error');
    await expect.element(panel.getByRole('button', { name: 'Retry' })).toHaveClass('mx-button');
    await expect.element(panel.getByRole('link', { name: 'Back to chats' })).toHaveClass('mx-button');
  });

  it('says an id that is no conversation id is invalid, without asking the engine', async () => {
    const { panel, openConversation } = await chatThatFails('/inbox/abc', null);
    await expect.element(panel.getByRole('alert')).toHaveTextContent('Invalid conversation ID provided');
    expect(document.querySelector('[data-chat-view]')?.getAttribute('data-chat-view')).toBe('invalid');
    expect(panel.getByRole('button', { name: 'Retry' }).elements()).toHaveLength(0);
    await expect.element(panel.getByRole('link', { name: 'Back to chats' })).toBeVisible();
    expect(openConversation).not.toHaveBeenCalled();
  });

  it('speaks Swedish in Swedish', async () => {
    const { panel } = await chatThatFails('/inbox/42', engineError(0, 'Failed to fetch conversation messages', 'getMessages'), 'sv');
    await expect
      .element(panel.getByRole('alert'))
      .toHaveTextContent('Det gick inte att läsa in konversationenDet gick inte att hämta chattens meddelanden');
    await expect.element(panel.getByRole('button', { name: 'Försök igen' })).toBeVisible();
  });
});
