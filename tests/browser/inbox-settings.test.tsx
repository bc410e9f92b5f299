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

  it('the notifications switch round trip: off turns preview and sound off, on gives back what the user had, and says so', async () => {
    window.Notification = { permission: 'granted', requestPermission: vi.fn() } as unknown as typeof Notification;
    const fake = fakeEngine();
    fake.refresh.next.resolve();
    await renderApp(fake.asTab, '/settings/notifications');
    const enable = page.getByRole('switch', { name: 'Enable notifications' });
    const preview = page.getByRole('switch', { name: 'Show message preview' });
    const sound = page.getByRole('switch', { name: 'Incoming message sound' });
    const status = page.getByRole('region', { name: 'Notifications' }).getByRole('status');
    await userEvent.click(sound);
    await expect.element(sound).toHaveAttribute('aria-checked', 'false');

    await userEvent.click(enable);
    for (const item of [enable, preview, sound]) await expect.element(item).toHaveAttribute('aria-checked', 'false');
    await expect.element(preview).toBeDisabled();
    await expect.element(page.getByText('Turning notifications on brings them back as they were.', { exact: false })).toBeVisible();
    await expect.element(status).toHaveTextContent('');

    await userEvent.click(enable);
    await expect.element(enable).toHaveAttribute('aria-checked', 'true');
    await expect.element(preview).toHaveAttribute('aria-checked', 'true');
    await expect.element(sound).toHaveAttribute('aria-checked', 'false');
    await expect.element(preview).toBeEnabled();
    await expect.element(status).toHaveTextContent('Notifications are on again: message preview on, sound off.');
    expect(page.getByText('brings them back', { exact: false }).query()).toBeNull();
    expect(fake.engine.updateSettings).toHaveBeenLastCalledWith({ notificationsEnable: true });
  });

  it('the round trip in Swedish, both on when nothing was turned off before', async () => {
    window.Notification = { permission: 'granted', requestPermission: vi.fn() } as unknown as typeof Notification;
    const fake = fakeEngine();
    fake.refresh.next.resolve();
    await renderApp(fake.asTab, '/settings/notifications', 'sv');
    const enable = page.getByRole('switch', { name: 'Aktivera aviseringar' });
    await userEvent.click(enable);
    await expect.element(page.getByText('När du aktiverar aviseringar igen blir de som förut.', { exact: false })).toBeVisible();
    await userEvent.click(enable);
    await expect.element(page.getByRole('switch', { name: 'Visa förhandsvisning' })).toHaveAttribute('aria-checked', 'true');
    await expect.element(page.getByRole('switch', { name: 'Ljud för inkommande meddelanden' })).toHaveAttribute('aria-checked', 'true');
    await expect.element(page.getByRole('region', { name: 'Aviseringar' }).getByRole('status')).toHaveTextContent('Aviseringar är på igen: förhandsvisning på, ljud på.');
  });
});
