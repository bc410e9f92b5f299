import { describe, expect, it } from 'vitest';
import { createRestClient, fetchTransport } from '../../../src/engine/rest';
import { nextPhone, TEST_PIN, useTestServer } from '../../support/server';
import { restClient } from './support/liveEngines';

describe('REST login flow against the reference server', () => {
  const s = useTestServer();

  it('requests a PIN, confirms it, reads the profile and registers a nickname', async () => {
    const session: { apiBase: string; token: string | null } = { apiBase: s.url, token: null };
    const rest = createRestClient({
      transport: fetchTransport,
      session: () => session,
      clientToken: 'install-login',
      onUnauthorized: () => {
        session.token = null;
      },
    });
    const phone = nextPhone();

    const { countries } = await rest.getCountries();
    expect(countries.map((c) => c.cc)).toEqual(expect.arrayContaining(['46', '62']));

    expect(await rest.requestPin(phone)).toEqual({ status: 'sent' });
    const confirmed = await rest.confirmPin(phone, TEST_PIN);
    expect(confirmed.token).toMatch(/\S{20,}/);
    expect(confirmed.endpoints).toEqual({ http: expect.any(String), ws: expect.any(String) });
    session.token = confirmed.token;

    const first = await rest.getMe();
    expect(first.account).toMatchObject({ id: confirmed.user_id, nickname: '', phone_nr: phone });

    const registered = await rest.register('  Linnea  ');
    expect(registered.account.nickname).toBe('Linnea');

    const updated = await rest.updateMe({ email: 'linnea@example.com' });
    expect(updated.account).toMatchObject({ nickname: 'Linnea', email: 'linnea@example.com' });
    expect((await rest.getMe()).account.nickname).toBe('Linnea');
  });

  it('answers a wrong PIN with the server message', async () => {
    const rest = restClient(s.url, null, 'install-login');
    const phone = nextPhone();
    await rest.requestPin(phone);
    await expect(rest.confirmPin(phone, '0000')).rejects.toEqual({
      name: 'EngineError',
      status: 400,
      message: 'Invalid PIN code',
      fallback: 'Invalid PIN code',
      call: 'confirmPin',
      code: 'invalid_pin',
    });
  });
});
