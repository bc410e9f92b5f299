import { act } from './support/act';
import { BehaviorSubject, NEVER } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { MessageSearchHit, MessageSearchView } from '../../src/engine/api';
import { fakeEngine, listItem, renderApp, unmount } from './inbox-support';

/**
 * The "Messages" section of the chats-list search (issue 13): the engine's hits of what this device holds,
 * under the chats the query matched, each opening its chat at the message.
 */

afterEach(async () => {
  await unmount();
  await page.viewport(414, 896);
});

function hit(id: number, patch: Partial<MessageSearchHit> = {}): MessageSearchHit {
  return {
    kind: 'message',
    conversationId: 7,
    channelId: null,
    communityId: null,
    postId: null,
    id,
    title: 'Book Club',
    senderName: 'Sara',
    fromSelf: false,
    createdAt: Date.now() - 60_000,
    snippet: [
      { text: 'See you at the ', match: false },
      { text: 'Kafé', match: true },
      { text: ' at noon', match: false },
    ],
    score: 1,
    ...patch,
  };
}

/** The fake engine, its search answering from `answers` by query (an empty, complete view otherwise). */
function searchingEngine(answers: Record<string, Partial<MessageSearchView>> = {}) {
  const fake = fakeEngine();
  fake.conversations.next([listItem(1, 'Erik'), listItem(7, 'Book Club', { is_group: true })]);
  fake.refresh.next.resolve();
  const searches = new Map<string, BehaviorSubject<MessageSearchView>>();
  const searchMessages = vi.fn((query: string) => {
    let subject = searches.get(query);
    if (!subject) {
      subject = new BehaviorSubject<MessageSearchView>({ query, hits: [], complete: true, ...answers[query] });
      searches.set(query, subject);
    }
    return subject;
  });
  const openConversationAt = vi.fn(() => new Promise<void>(() => undefined));
  const openConversation = vi.fn(() => new Promise<void>(() => undefined));
  Object.assign(fake.engine, { searchMessages, openConversationAt, openConversation, conversation: () => NEVER });
  return { fake, searchMessages, openConversationAt, openConversation, searches };
}

const marks = () => [...document.querySelectorAll('.inbox-hit mark')].map((m) => m.textContent);

describe('the Messages section of the chats search', () => {
  it('shows the hits under the matching chats, with chat, sender, time and the matched words marked', async () => {
    const { fake, searchMessages } = searchingEngine({ kafe: { hits: [hit(301), hit(45, { title: 'Erik', senderName: '' })] } });
    await renderApp(fake.asTab);
    expect(page.getByRole('region', { name: 'Messages' }).query()).toBeNull();
    await userEvent.fill(page.getByRole('searchbox', { name: 'Search chats' }), 'kafe');
    const section = page.getByRole('region', { name: 'Messages' });
    await expect.element(section.getByRole('heading', { name: 'Messages' })).toBeVisible();
    await expect.element(section.getByRole('link', { name: /^Book Club/ })).toBeVisible();
    expect(searchMessages).toHaveBeenLastCalledWith('kafe');
    const links = section.getByRole('link').elements();
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/inbox/7?message=301', '/inbox/7?message=45']);
    expect(links[0]?.textContent).toMatch(/^Book Club, \d{1,2}[:.]\d{2}.*Sara: See you at the Kafé at noon$/);
    expect(links[1]?.querySelector('.inbox-hit__sender')).toBeNull();
    expect(marks()).toEqual(['Kafé', 'Kafé']);
    // The chats the query matched by name still come first (none here).
    await expect.element(page.getByText('No conversations found')).toBeVisible();
  });

  it('searches once typing pauses, and the section goes with the query', async () => {
    const { fake, searchMessages } = searchingEngine();
    await renderApp(fake.asTab);
    const search = page.getByRole('searchbox', { name: 'Search chats' });
    await userEvent.fill(search, 'book');
    await expect.poll(() => searchMessages.mock.calls.at(-1)?.[0]).toBe('book');
    // Chats matched by name are listed above the messages.
    await expect.element(page.getByRole('link', { name: /^Book Club/ }).first()).toBeVisible();
    await userEvent.fill(search, '');
    await expect.poll(() => page.getByRole('region', { name: 'Messages' }).query()).toBeNull();
    expect(searchMessages.mock.calls.every(([q]) => q !== '')).toBe(true);
  });

  it('says when nothing was found, and quietly when the index is still being built', async () => {
    const { fake, searches } = searchingEngine({ zebra: { hits: [], complete: false } });
    await renderApp(fake.asTab);
    await userEvent.fill(page.getByRole('searchbox', { name: 'Search chats' }), 'zebra');
    await expect.element(page.getByText('No messages found')).toBeVisible();
    await expect.element(page.getByRole('status').filter({ hasText: 'Still indexing…' })).toBeVisible();
    await act(async () => searches.get('zebra')?.next({ query: 'zebra', hits: [hit(9)], complete: true }));
    await expect.element(page.getByRole('link', { name: /^Book Club/ })).toBeVisible();
    expect(page.getByText('Still indexing…').query()).toBeNull();
    expect(page.getByText('No messages found').query()).toBeNull();
  });

  it('opens the chat at the message chosen, from the keyboard too, and again when chosen again', async () => {
    // Wide enough that the chats list stays beside the open chat.
    await page.viewport(1280, 800);
    const { fake, openConversationAt, openConversation } = searchingEngine({ kafe: { hits: [hit(301)] } });
    const { router } = await renderApp(fake.asTab);
    await userEvent.fill(page.getByRole('searchbox', { name: 'Search chats' }), 'kafe');
    const link = page.getByRole('region', { name: 'Messages' }).getByRole('link', { name: /^Book Club/ });
    await expect.element(link).toBeVisible();
    (link.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => router.state.location.pathname).toBe('/inbox/7');
    expect(router.state.location.search).toEqual({ message: 301 });
    await expect.poll(() => openConversationAt.mock.calls).toEqual([[7, 301]]);
    expect(openConversation).not.toHaveBeenCalled();
    // The same hit chosen again opens the chat there again (the reader may have scrolled away).
    await userEvent.click(link);
    await expect.poll(() => openConversationAt.mock.calls).toEqual([[7, 301], [7, 301]]);
  });

  it('opens a post in its channel, and a comment at its post', async () => {
    const channel = { kind: 'post' as const, conversationId: null, channelId: 40, communityId: 5, title: 'Pengumuman' };
    const { fake } = searchingEngine({
      kopi: { hits: [hit(12, channel), hit(99, { ...channel, kind: 'comment', postId: 12 })] },
    });
    await renderApp(fake.asTab);
    await userEvent.fill(page.getByRole('searchbox', { name: 'Search chats' }), 'kopi');
    await expect.element(page.getByRole('link', { name: /^Pengumuman/ }).first()).toBeVisible();
    const links = page.getByRole('region', { name: 'Messages' }).getByRole('link').elements();
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/inbox/40?message=12', '/inbox/40?message=12']);
    expect(links.map((l) => l.querySelector('.inbox-hit__kind')?.textContent)).toEqual(['Post · ', 'Comment · ']);
  });

  it('speaks Swedish', async () => {
    const { fake } = searchingEngine({ kafe: { hits: [], complete: false } });
    await renderApp(fake.asTab, '/inbox', 'sv');
    await userEvent.fill(page.getByRole('searchbox', { name: 'Sök chattar' }), 'kafe');
    await expect.element(page.getByRole('heading', { name: 'Meddelanden' })).toBeVisible();
    await expect.element(page.getByText('Inga meddelanden hittades')).toBeVisible();
    await expect.element(page.getByText('Indexerar fortfarande…')).toBeVisible();
  });
});
