import { describe, expect, it } from 'vitest';
import { browserLanguage, threadLanguages } from '../../../src/engine/preferences/browserLanguage';
import { fetchTransport, type HttpTransport } from '../../../src/engine/rest';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { nextPhone, useTestServer } from '../../support/server';
import { signIn, useEngines } from './support/liveEngines';

/**
 * Issue 10: the engine asks the server for its messages in the language the user chose: Accept-Language
 * on every call, following a change at once; before any choice it sets none (the browser sends its own).
 */

const s = useTestServer();
const { startEngine } = useEngines(s);

/** A whole 1×1 PNG: the server reads the type from its first bytes and keeps only pictures it can read (docs/server.md). */
const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex'));
const png = () => new Blob([PNG], { type: 'image/png' });

/** The real transport, noting the Accept-Language of every request and upload (null: none). */
function recording(): { transport: HttpTransport; sent: (string | null)[] } {
  const sent: (string | null)[] = [];
  const transport: HttpTransport = {
    request: (request) => {
      sent.push(request.headers['Accept-Language'] ?? null);
      return fetchTransport.request(request);
    },
    upload: (request) => {
      sent.push(request.headers['Accept-Language'] ?? null);
      return fetchTransport.upload(request);
    },
  };
  return { transport, sent };
}

describe('Accept-Language', () => {
  it('follows the chosen language on every call, uploads too, and is kept across restarts', async () => {
    const storage = new MemoryStorage();
    const { transport, sent } = recording();
    const engine = await startEngine({ storage, transport });
    await engine.requestPin(nextPhone());
    // No choice and no tab yet: the thread's own languages decide. Node 22 has a `navigator` too (its
    // languages are the process's locale), where Node 20 had none and the engine set no header.
    expect(sent).toEqual([browserLanguage(threadLanguages())]);

    await engine.setLanguage('sv');
    await signIn(engine, 'Språk');
    expect(sent.length).toBeGreaterThan(3);
    expect(new Set(sent.slice(1))).toEqual(new Set(['sv']));

    sent.length = 0;
    await engine.setLanguage('en');
    await engine.updateProfile({ image: png() });
    await engine.refreshProfile();
    // The upload, the PUT /v1/me that names it, the GET /v1/me.
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(new Set(sent)).toEqual(new Set(['en']));

    await engine.setLanguage('sv');
    await engine.stop();
    const again = recording();
    const restarted = await startEngine({ storage, transport: again.transport });
    await restarted.refreshProfile();
    expect(again.sent.length).toBeGreaterThan(0);
    expect(new Set(again.sent)).toEqual(new Set(['sv']));
  });

  it('before any choice, asks in the language the tabs show (their browser’s), and a choice wins over it', async () => {
    const { transport, sent } = recording();
    const engine = await startEngine({ transport });
    // A Swedish browser: the tab says so (a SharedWorker's own navigator may not know, docs/ui.md "Refusals").
    engine.setTabState('tab-1', { visible: true, focused: true, openConversationId: null, languages: ['sv-SE', 'en-US'] });
    await expect(engine.requestPin('+4612')).rejects.toMatchObject({
      status: 400,
      code: 'invalid_phone',
      message: 'Ange ett giltigt telefonnummer',
    });
    // A browser in a language the app does not have gets the app's English.
    engine.setTabState('tab-1', { visible: true, focused: true, openConversationId: null, languages: ['de-DE'] });
    await engine.requestPin(nextPhone());
    await engine.setLanguage('sv');
    await engine.requestPin(nextPhone());
    expect(sent).toEqual(['sv', 'en', 'sv']);
  });

  it('carries the refusal’s code and its wait into the EngineError', async () => {
    const engine = await startEngine();
    const phone = nextPhone();
    for (let i = 0; i < 5; i++) await engine.requestPin(phone);
    await expect(engine.requestPin(phone)).rejects.toMatchObject({
      status: 429,
      code: 'pin_requests_limited',
      retryAfterMs: 15 * 60_000,
    });
  });

  it('brings the server’s own message back in Swedish', async () => {
    const engine = await startEngine();
    await engine.setLanguage('sv');
    const phone = nextPhone();
    for (let i = 0; i < 5; i++) await engine.requestPin(phone);
    await expect(engine.requestPin(phone)).rejects.toMatchObject({
      status: 429,
      message: 'För många begäranden om PIN-kod för det här numret. Försök igen om 15 minuter.',
      fallback: 'Failed to request the PIN code',
    });
    await engine.setLanguage('en');
    await expect(engine.requestPin(phone)).rejects.toMatchObject({
      message: 'Too many PIN requests for this number. Try again in 15 minutes.',
    });
  });
});
