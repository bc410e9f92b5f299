import { act } from './support/act';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { deferred, fakeEngine, listItem, renderApp, unmount } from './inbox-support';

afterEach(unmount);

const skeletons = () => document.querySelectorAll('[data-testid="skeleton-row"]');
const rowNames = () =>
  [...document.querySelectorAll('.inbox-row__name')].map((el) => el.textContent);

describe('the chats list', () => {
  it('shows 10 skeleton rows until the first answer, then the list', async () => {
    const fake = fakeEngine();
    await renderApp(fake.asTab);
    await expect.element(page.getByRole('status', { name: 'Loading chats' })).toBeVisible();
    expect(skeletons()).toHaveLength(10);
    await act(async () => {
      fake.conversations.next([listItem(1, 'Erik'), listItem(2, 'Sara')]);
      fake.refresh.next.resolve();
    });
    await expect.element(page.getByRole('link', { name: /^Erik/ })).toBeVisible();
    expect(skeletons()).toHaveLength(0);
    expect(rowNames()).toEqual(['Erik', 'Sara']);
  });

  it('shows cached conversations at once, without skeletons', async () => {
    const fake = fakeEngine();
    fake.conversations.next([listItem(1, 'Erik')]);
    await renderApp(fake.asTab);
    await expect.element(page.getByRole('link', { name: /^Erik/ })).toBeVisible();
    expect(skeletons()).toHaveLength(0);
  });

  it('shows the error with a retry that asks again, when nothing is cached', async () => {
    const fake = fakeEngine();
    const { router } = await renderApp(fake.asTab, '/');
    const failure = { name: 'EngineError', status: 0, message: 'Failed to fetch conversations list', fallback: 'Failed to fetch conversations list', call: 'getConversations' };
    await act(async () => fake.refresh.next.reject(failure));
    // Spec §8: what failed ('Failed to load conversations'), and why (the engine's text).
    await expect.element(page.getByRole('alert')).toHaveTextContent(/^Failed to load conversationsFailed to fetch conversations listRetry$/);
    expect(document.querySelector('.inbox-state__title')?.textContent).toBe('Failed to load conversations');
    expect(document.querySelector('.inbox-state__detail')?.textContent).toBe('Failed to fetch conversations list');
    fake.refresh.next = deferred<void>();
    await userEvent.click(page.getByRole('button', { name: 'Retry' }));
    expect(fake.engine.refreshConversations).toHaveBeenCalledTimes(2);
    await expect.poll(() => router.state.location.pathname).toBe('/inbox');
    expect(skeletons()).toHaveLength(10);
    await act(async () => fake.refresh.next.resolve());
    await expect.element(page.getByText('No conversations yet')).toBeVisible();
  });

  it('searches by name in any case, with its own empty state', async () => {
    const fake = fakeEngine();
    fake.conversations.next([listItem(1, 'Erik'), listItem(2, 'Book Club', { is_group: true }), listItem(3, 'ERIKA')]);
    fake.refresh.next.resolve();
    await renderApp(fake.asTab);
    const search = page.getByRole('searchbox', { name: 'Search chats' });
    await userEvent.fill(search, 'erik');
    await expect.poll(rowNames).toEqual(['Erik', 'ERIKA']);
    await userEvent.fill(search, 'nobody');
    await expect.element(page.getByText('No conversations found')).toBeVisible();
  });

  it('filters unread, and offers Communities and Groups only to a country with communities', async () => {
    const items = [
      listItem(1, 'Erik', {}, 2),
      listItem(2, 'Book Club', { is_group: true }),
      listItem(3, 'Kopi', { is_group: true, community_id: 5, group_type: 'channel' }),
    ];
    const sweden = fakeEngine('46');
    sweden.conversations.next(items);
    await renderApp(sweden.asTab);
    await expect.element(page.getByRole('tab', { name: 'Unread' })).toBeVisible();
    expect(page.getByRole('tab').elements().map((el) => el.textContent)).toEqual(['All', 'Unread']);
    expect(page.getByRole('link', { name: 'Communities' }).query()).toBeNull();
    await userEvent.click(page.getByRole('tab', { name: 'Unread' }));
    await expect.poll(rowNames).toEqual(['Erik']);
    await expect.element(page.getByRole('tab', { name: 'Unread' })).toHaveAttribute('aria-selected', 'true');
    await expect.element(page.getByTestId('unread-badge')).toHaveTextContent('2');

    const indonesia = fakeEngine('62');
    indonesia.conversations.next(items);
    await renderApp(indonesia.asTab);
    await expect.element(page.getByRole('tab', { name: 'Groups' })).toBeVisible();
    expect(page.getByRole('tab').elements().map((el) => el.textContent)).toEqual(['All', 'Unread', 'Communities', 'Groups']);
    await expect.element(page.getByRole('link', { name: 'Communities' })).toBeVisible();
    await userEvent.click(page.getByRole('tab', { name: 'Groups' }));
    await expect.poll(rowNames).toEqual(['Book Club']);
    // The tablist moves with the arrow keys.
    await userEvent.keyboard('{ArrowLeft}');
    await expect.element(page.getByRole('tab', { name: 'Communities' })).toHaveAttribute('aria-selected', 'true');
    await expect.poll(rowNames).toEqual(['Kopi']);
  });

  it('says what each empty tab holds (issue 23), not "No conversations yet"', async () => {
    const fake = fakeEngine('62');
    fake.conversations.next([listItem(1, 'Erik')]);
    fake.refresh.next.resolve();
    await renderApp(fake.asTab);
    const empty = () => document.querySelector('.inbox-state__title')?.textContent;
    await userEvent.click(page.getByRole('tab', { name: 'Unread' }));
    await expect.poll(empty).toBe('No unread chats');
    await userEvent.click(page.getByRole('tab', { name: 'Groups' }));
    await expect.poll(empty).toBe('No groups yet');
    await userEvent.click(page.getByRole('tab', { name: 'Communities' }));
    await expect.poll(empty).toBe('No community channels yet');
  });

  it('renders a bounded number of rows for 5,000 conversations and reaches the last one', async () => {
    const fake = fakeEngine();
    fake.conversations.next(Array.from({ length: 5000 }, (_, i) => listItem(i + 1, `Chat ${i + 1}`)));
    fake.refresh.next.resolve();
    await renderApp(fake.asTab);
    await expect.element(page.getByRole('link', { name: /^Chat 1\s*,/ })).toBeVisible();
    expect(document.querySelectorAll('.inbox-row').length).toBeLessThan(100);
    const scroller = document.querySelector('[data-testid="inbox-list"]') as HTMLElement;
    scroller.scrollTop = scroller.scrollHeight;
    await expect.element(page.getByRole('link', { name: /^Chat 5000\s*,/ })).toBeVisible();
    expect(document.querySelectorAll('.inbox-row').length).toBeLessThan(100);
  });

  it('marks the current menu entry and shows a quiet connection state', async () => {
    const fake = fakeEngine();
    fake.refresh.next.resolve();
    await renderApp(fake.asTab, '/settings/help');
    await expect.element(page.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
    expect(page.getByRole('link', { name: 'Chats' }).element().getAttribute('aria-current')).toBeNull();
    await expect.element(page.getByRole('status').filter({ hasText: 'Online' })).toHaveClass(/connection--online/);
    await act(async () => fake.connection.next('closed'));
    await expect.element(page.getByText('Offline. Reconnecting…')).toBeVisible();
  });
});
