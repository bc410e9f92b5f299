import { describe, expect, it } from 'vitest';
import { fetchTransport, type HttpTransport } from '../../../src/engine/rest';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { useTestServer } from '../../support/server';
import { signIn, useEngines } from './support/liveEngines';

/** Spec §7: every call carries Client-Token, the stable random id of this install (browser profile). */

const s = useTestServer();
const { startEngine } = useEngines(s);

/** The real transport, noting the Client-Token of every request. */
function recording(): { transport: HttpTransport; tokens: string[] } {
  const tokens: string[] = [];
  const transport: HttpTransport = {
    request: (request) => {
      tokens.push(request.headers['Client-Token'] ?? '');
      return fetchTransport.request(request);
    },
    upload: (request) => {
      tokens.push(request.headers['Client-Token'] ?? '');
      return fetchTransport.upload(request);
    },
  };
  return { transport, tokens };
}

describe('Client-Token', () => {
  it('is one random id per install, kept across restarts and sign-outs, and differs between installs', async () => {
    const storage = new MemoryStorage();
    const first = recording();
    const engine = await startEngine({ storage, transport: first.transport });
    await signIn(engine, 'Token');
    await engine.logout();
    const [token] = first.tokens;
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(first.tokens)).toEqual(new Set([token]));
    await engine.stop();

    const again = recording();
    const restarted = await startEngine({ storage, transport: again.transport });
    await signIn(restarted, 'Token again');
    expect(new Set(again.tokens)).toEqual(new Set([token]));

    const other = recording();
    const elsewhere = await startEngine({ transport: other.transport });
    await signIn(elsewhere, 'Elsewhere');
    expect(other.tokens[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(other.tokens[0]).not.toBe(token);
  });
});
