import type { Page } from 'playwright';
import { expect } from 'vitest';
import type { CreatedConversationAnswer } from '../../../src/protocol/api';
import { call, type TestUser } from '../../support/server';
import { signInAs, waitFor } from '../../support/tabs';
import { sendAs } from '../chat-view-support';
import type { Stage } from './stage';

/** Set-ups of the chats and messages entries of the catalogue walk (chats.test.ts, messages.test.ts). */

export interface ChatSetup {
  me: TestUser;
  friend: TestUser;
  conversationId: number;
  /** The signed-in tab of `me`, on /inbox. */
  page: Page;
}

/**
 * A one-to-one chat of two new users made over REST ("Friend" created it with "Me", who is signed in in a
 * fresh profile of the stage's language), with `theirs` messages from Friend and `mine` from Me in it.
 * `before` runs before Me signs in (to fail calls the sign-in would already make).
 */
export async function chatSetup(
  s: Stage,
  options: { theirs?: readonly string[]; mine?: readonly string[]; before?: () => void } = {},
): Promise<ChatSetup> {
  const [me, friend] = await Promise.all([s.user('Me'), s.user('Friend')]);
  const form = { 'member[0][name]': 'Me', 'member[0][type]': 'phone_nr', 'member[0][value]': me.phone };
  const created = await call<CreatedConversationAnswer>(s.server.url, 'POST', '/v2/conversations', { token: friend.token, form });
  const conversationId = created.data.conversation.id;
  for (const text of options.theirs ?? []) await sendAs(s.server, friend, conversationId, text);
  for (const text of options.mine ?? []) await sendAs(s.server, me, conversationId, text);
  options.before?.();
  const { page } = await s.tab('/login');
  await signInAs(page, me.phone);
  return { me, friend, conversationId, page };
}

/** Waits until the tab's chats list holds the chat (the engine knows it before the chat opens). */
export async function listed(setup: ChatSetup): Promise<void> {
  await waitFor(setup.page, 'conversations', [], (list) => {
    expect(list.some((item) => item.conversation.id === setup.conversationId)).toBe(true);
  });
}

/** Opens the chat by its URL and waits for its input. */
export async function openChat(s: Stage, setup: ChatSetup): Promise<void> {
  await setup.page.goto(`${s.url}/inbox/${setup.conversationId}`);
  await composer(s, setup.page).waitFor();
}

export const composer = (s: Stage, page: Page) => page.getByRole('textbox', { name: s.t('chatActions.composer.label') });

/** The message with this text in the open chat (its article: bubble, reactions, actions). */
export const messageWith = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text });
