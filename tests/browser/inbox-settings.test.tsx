import { act } from './support/act';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { fakeEngine, renderApp, unmount } from './inbox-support';

const realNotification = window.Notification;
afterEach(async () => {
  await unmount();
  window.Notification = realNotification;
});

/** A Notification whose permission is still to be asked, answering `answer`. */
function askingNotification(answer: NotificationPermission) {
  const requestPermission = vi.fn(async () => {
    stub.permission = answer;
    return answer;
  });
  const stub = { permission: 'default' as NotificationPermission, requestPermission };
  window.Notification = stub as unknown as typeof Notification;
  return requestPermission;
}

describe('the notification settings', () => {
  it('asks the browser for permission from the click that turns notifications on', async () => {
    const requestPermission = askingNotification('granted');
    const fake = fakeEngine();
    fake.refresh.next.resolve();
    await act(async () => {
      await fake.engine.updateSettings({ notificationsEnable: false, notificationsShowPreview: false, incomingMessagesSound: false });
    });
    await renderApp(fake.asTab, '/settings/notifications');
    const enable = page.getByRole('switch', { name: 'Enable notifications' });
    await expect.element(enable).toHaveAttribute('aria-checked', 'false');
    await expect.element(page.getByRole('switch', { name: 'Show message preview' })).toBeDisabled();
    expect(requestPermission).not.toHaveBeenCalled();

    await userEvent.click(enable);
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(fake.engine.updateSettings).toHaveBeenLastCalledWith({ notificationsEnable: true });
    await expect.poll(() => fake.engine.setNotificationPermission.mock.calls).toEqual([['granted']]);
    await expect.element(enable).toHaveAttribute('aria-checked', 'true');
    await expect.element(page.getByRole('switch', { name: 'Show message preview' })).toBeEnabled();
    expect(page.getByRole('button', { name: 'Allow notifications' }).query()).toBeNull();
  });

  it('offers a button to ask when notifications are on but not yet allowed, and explains a refusal', async () => {
    const requestPermission = askingNotification('denied');
    const fake = fakeEngine();
    fake.refresh.next.resolve();
    await renderApp(fake.asTab, '/settings/notifications', 'sv');
    await userEvent.click(page.getByRole('button', { name: 'Tillåt aviseringar' }));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    await expect.element(page.getByText('Aviseringar är blockerade', { exact: false })).toBeVisible();
  });
});
