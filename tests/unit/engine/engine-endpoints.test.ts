import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredAuth } from '../../../src/engine/session/session';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import type { Country } from '../../../src/protocol/entities';
import { sql } from '../../../server/db/store';
import { nextPhone, startTestServer, type TestServer, TEST_PIN, useTestServer } from '../../support/server';
import { signIn, useEngines } from './support/liveEngines';

/** Spec §7: the PIN confirmation's endpoints are stored; a country may have its own host for the PIN request. */

const s = useTestServer();
const { startEngine } = useEngines(s);

/** A second reference server: the Swedish numbers' own PIN host in these tests. */
let pinHost: TestServer;
beforeAll(async () => {
  pinHost = await startTestServer();
});
afterAll(async () => {
  await pinHost.close();
});

const pinsIssued = async (server: TestServer, phone: string) =>
  (await server.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM pins WHERE phone_nr = ${phone}`))!.n;

/** The server's countries, Sweden's http endpoint pointed at `http`, cached in `storage` as the engine caches them. */
async function cacheCountries(storage: MemoryStorage, http: string): Promise<void> {
  const response = await fetch(`${s.url}/v1/countries`, { headers: { 'Client-Version': '1', 'x-features': '15' } });
  const { data } = (await response.json()) as { data: { countries: Country[] } };
  const countries = data.countries.map((c) => (c.cc === '46' ? { ...c, endpoints: { ...c.endpoints, http } } : c));
  await storage.writeBatch([{ store: 'countries', type: 'put', key: 'all', value: countries }]);
}

describe('endpoints of the PIN flow', () => {
  it('stores the endpoints the PIN confirmation returns, with the token', async () => {
    const storage = new MemoryStorage();
    const engine = await startEngine({ storage });
    const { userId } = await signIn(engine, 'Endpoints');
    const stored = await storage.get<StoredAuth>('session', 'auth');
    expect(stored).toMatchObject({ userId, token: expect.any(String), endpoints: { http: '', ws: '' } });
  });

  it("sends the PIN request to the country's own http endpoint when it has one", async () => {
    const storage = new MemoryStorage();
    await cacheCountries(storage, pinHost.url);
    const engine = await startEngine({ storage });
    const swedish = nextPhone('46');
    await engine.requestPin(swedish);
    expect(await pinsIssued(pinHost, swedish)).toBe(1);
    expect(await pinsIssued(s, swedish)).toBe(0);

    // A country without its own endpoint asks the default host.
    const indonesian = nextPhone('62');
    await engine.requestPin(indonesian);
    expect(await pinsIssued(s, indonesian)).toBe(1);
    expect(await pinsIssued(pinHost, indonesian)).toBe(0);
  });

  it('asks the default host when the country names no endpoint of its own', async () => {
    const storage = new MemoryStorage();
    await cacheCountries(storage, '');
    const engine = await startEngine({ storage });
    const phone = nextPhone('46');
    await engine.requestPin(phone);
    expect(await pinsIssued(s, phone)).toBe(1);
    await engine.confirmPin(phone, TEST_PIN);
    expect(await storage.get<StoredAuth>('session', 'auth')).toMatchObject({ endpoints: { http: '', ws: '' } });
  });
});
