import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { DeviceSession, EngineError } from '../../src/engine/api';
import { fakeEngine, renderApp, unmount } from './inbox-support';

afterEach(unmount);

/** Noon today, and a moment of yesterday (local time), so the rows' words are known. */
const today = new Date();
today.setHours(12, 0, 0, 0);
const yesterday = new Date(today.getTime());
yesterday.setDate(today.getDate() - 1);
yesterday.setHours(9, 5, 0, 0);

const LIST: DeviceSession[] = [
  { id: 'here', browser: 'Chrome', os: 'Linux', createdAt: 0, lastActiveAt: today.getTime(), current: true },
  { id: 'phone', browser: 'Safari', os: 'iOS', createdAt: 0, lastActiveAt: yesterday.getTime(), current: false },
  // What the server could not name: never the raw header, and shown as text whatever it is.
  { id: 'odd', browser: '', os: '', createdAt: 0, lastActiveAt: yesterday.getTime(), current: false },
];

const refusal = (message: string, call: string): EngineError => ({ name: 'EngineError', status: 0, message, fallback: message, call });

/** The account page's sessions (docs/ui.md "Sessions") around a fake engine. */
describe('the sessions on the account page', () => {
  it('lists them with this device marked, and ends another after a confirmation (English)', async () => {
    const fake = fakeEngine();
    fake.refresh.next.resolve();
    fake.engine.sessions.mockResolvedValue(LIST);
    await renderApp(fake.asTab, '/profile');
    const section = page.getByTestId('sessions');
    await expect.element(section.getByRole('heading', { name: 'Sessions' })).toBeVisible();
    const rows = section.getByTestId('session-row');
    await expect.poll(() => rows.elements().map((row) => row.textContent)).toEqual([
      'Chrome on LinuxThis device',
      'Safari on iOSLast active yesterday at 09:05End',
      'Unknown deviceLast active yesterday at 09:05End',
    ]);

    await userEvent.click(section.getByRole('button', { name: 'End the session on Safari on iOS' }));
    const dialog = page.getByRole('dialog', { name: 'End this session?' });
    await expect.element(dialog).toHaveTextContent('Safari on iOS will be signed out.');
    fake.engine.sessions.mockResolvedValue(LIST.filter((s) => s.id !== 'phone'));
    await userEvent.click(dialog.getByRole('button', { name: 'End' }));
    expect(fake.engine.endSession).toHaveBeenCalledWith('phone');
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.poll(() => rows.elements().length).toBe(2);
  });

  it('ends all other sessions after a confirmation, and shows failures translated (Swedish)', async () => {
    const fake = fakeEngine();
    fake.refresh.next.resolve();
    fake.engine.sessions.mockRejectedValueOnce(refusal('Failed to fetch sessions', 'getSessions')).mockResolvedValue(LIST);
    await renderApp(fake.asTab, '/profile', 'sv');
    const section = page.getByTestId('sessions');
    await expect.element(section.getByRole('heading', { name: 'Sessioner' })).toBeVisible();
    await expect.element(section.getByRole('alert')).toHaveTextContent('Det gick inte att hämta sessionerna');
    await userEvent.click(section.getByRole('button', { name: 'Försök igen' }));
    const rows = section.getByTestId('session-row');
    await expect.poll(() => rows.elements().map((row) => row.textContent)).toEqual([
      'Chrome på LinuxDen här enheten',
      'Safari på iOSSenast aktiv igår kl. 09:05Avsluta',
      'Okänd enhetSenast aktiv igår kl. 09:05Avsluta',
    ]);

    await userEvent.click(section.getByRole('button', { name: 'Avsluta alla andra sessioner' }));
    const dialog = page.getByRole('dialog', { name: 'Avsluta alla andra sessioner?' });
    fake.engine.endOtherSessions.mockRejectedValueOnce(refusal('Failed to end the other sessions', 'endOtherSessions'));
    await userEvent.click(dialog.getByRole('button', { name: 'Avsluta alla' }));
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('Det gick inte att avsluta de andra sessionerna');
    fake.engine.sessions.mockResolvedValue(LIST.filter((s) => s.current));
    await userEvent.click(dialog.getByRole('button', { name: 'Avsluta alla' }));
    await expect.element(dialog).not.toBeInTheDocument();
    expect(fake.engine.endOtherSessions).toHaveBeenCalledTimes(2);
    await expect.poll(() => rows.elements().length).toBe(1);
    await expect.element(section.getByRole('button', { name: 'Avsluta alla andra sessioner' })).not.toBeInTheDocument();
  });
});
