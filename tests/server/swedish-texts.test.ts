import { describe, expect, it } from 'vitest';
import type { WarningsAnswer } from '../../src/protocol/api';
import { KNOWN_ERRORS } from '../../src/ui/common/errorText';
import { requestLanguage } from '../../server/http/language';
import {
  CLIENT_TRANSLATED,
  patternHoles,
  SWEDISH,
  SWEDISH_PATTERNS,
  swedishFor,
  swedishSchemaMessage,
} from '../../server/http/messages.sv';
import { call, nextPhone, TEST_PIN, useTestServer, useUsers } from '../support/server';
import { conversation, sent } from './messages-support';
import { scanServerTexts } from './server-texts-scan';

/**
 * Issue 10: the server answers every message it sends in the language of the request's Accept-Language,
 * English or Swedish (docs/server.md "Languages"), and no message it can send lacks its Swedish.
 */

const s = useTestServer();
const [anna, bo] = useUsers(s, 'Anna', 'Bo');

const sv = { 'Accept-Language': 'sv' };
const message = (r: { body: unknown }) => (r.body as { message?: string }).message;

describe('Swedish server texts', () => {
  it('answers in Swedish when the request asks for it, in English otherwise', async () => {
    const phone = nextPhone();
    for (let i = 0; i < 5; i++) await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } }).then((r) => r.data);
    const ask = (headers: Record<string, string>) => call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone }, headers });

    const inSwedish = 'För många begäranden om PIN-kod för det här numret. Försök igen om 15 minuter.';
    const swedish = await ask(sv);
    expect(swedish.status).toBe(429);
    expect(swedish.body).toEqual({
      success: false,
      status: 429,
      message: inSwedish,
      code: 'pin_requests_limited',
      retry_after: 900,
    });
    const raw = await fetch(`${s.url}/v1/auth/pin`, {
      method: 'POST',
      headers: { ...sv, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ phone_nr: phone }).toString(),
    });
    expect(raw.headers.get('vary')).toMatch(/accept-language/i);
    const english = 'Too many PIN requests for this number. Try again in 15 minutes.';
    expect(message(await ask({ 'Accept-Language': 'en' }))).toBe(english);
    expect(message(await ask({}))).toBe(english);
    expect(message(await ask({ 'Accept-Language': 'de-DE,de;q=0.9' }))).toBe(english);
    // A browser's own header: the first of the two languages the server writes, by preference.
    expect(message(await ask({ 'Accept-Language': 'sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7' }))).toBe(inSwedish);
    expect(message(await ask({ 'Accept-Language': 'de, sv;q=0.5' }))).toBe(inSwedish);
    expect(message(await ask({ 'Accept-Language': 'sv;q=0.4, en;q=0.8' }))).toBe(english);
  });

  it('translates texts made with values, the edge’s own texts and schema refusals', async () => {
    const long = await call(s.url, 'POST', '/v2/me/register', { token: anna.token, json: { name: 'x'.repeat(51) }, headers: sv });
    expect(long.body).toEqual({
      success: false,
      status: 400,
      message: 'Smeknamnet får vara högst 50 tecken',
      code: 'nickname_too_long',
    });

    const members = await call(s.url, 'POST', '/v2/conversations', {
      token: anna.token,
      form: { name: 'Grupp', force_group: 1, 'member[0][name]': 'Bo', 'member[0][value]': bo.phone, 'member[1][value]': '12' },
      headers: sv,
    });
    expect(message(members)).toBe('Ogiltigt telefonnummer (medlem 2)');

    const signedOut = await call(s.url, 'GET', '/v1/me', { headers: sv });
    expect(signedOut.body).toEqual({ success: false, status: 401, message: 'Ej behörig' });
    expect(message(await call(s.url, 'GET', '/v1/nothing-here', { token: anna.token, headers: sv }))).toBe('Hittades inte');
    const badJson = await call(s.url, 'POST', '/v2/me/register', {
      token: anna.token,
      body: '{',
      headers: { ...sv, 'Content-Type': 'application/json' },
    });
    expect(message(badJson)).toBe('Begärans innehåll är inte giltig JSON.');
    // Fastify's refusal of a URL it cannot decode.
    expect(message(await call(s.url, 'GET', '/v1/%E0%A4%A', { headers: sv }))).toBe('Felaktig begäran');

    // A schema refusal: AJV's words in English, the server's own in Swedish.
    const confirm = (headers: Record<string, string>) =>
      call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: anna.phone }, headers });
    expect(message(await confirm({}))).toBe("Invalid pin: must have required property 'pin'");
    expect(message(await confirm(sv))).toBe('Ogiltigt värde för pin: uppgiften saknas');
  });

  it('leaves the texts of spec §8 in English for the client to translate', async () => {
    const phone = nextPhone();
    await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } }).then((r) => r.data);
    const wrong = [...TEST_PIN].map((d) => String((Number(d) + 5) % 10)).join('');
    const r = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: wrong }, headers: sv });
    expect(r.body).toEqual({ success: false, status: 400, message: 'Invalid PIN code', code: 'invalid_pin' });
  });

  it('says why in Swedish when a batch is done in part (warnings)', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const own = await sent(s, anna, id, 'mitt');
    const theirs = await sent(s, bo, id, 'ditt');
    const r = await call<WarningsAnswer>(s.url, 'POST', `/v2/conversations/${id}/delete/messages`, {
      token: anna.token,
      json: { message_ids: [own, theirs, 999_999] },
      headers: sv,
    });
    expect(r.data).toEqual({
      message_ids: [own],
      warnings: [
        { message_id: theirs, reason: 'Du kan bara radera dina egna meddelanden' },
        { message_id: 999_999, reason: 'Meddelandet hittades inte' },
      ],
    });
  });

  // TypeScript's checker over the whole server (and the types of Kysely and pg it imports): seconds, more on a busy machine.
  it('has a Swedish text for every message the server’s code can send, and none it cannot', { timeout: 60_000 }, () => {
    const { texts, unexplained, unused } = scanServerTexts();
    // A message made some new way: teach the scan (tests/server/server-texts-scan.ts) to follow it.
    expect(unexplained).toEqual([]);
    expect(unused).toEqual([]);
    // Sanity: the scan finds the texts it must.
    const found = new Set(texts.map((t) => t.text));
    expect(found).toContain('Too many PIN requests for this number. Try again in {}.');
    expect(found).toContain('Members cannot be added to a one-to-one chat'); // through requireGroup
    expect(found).toContain('Post not found'); // through setReaction and requireVisibleMessage
    expect(found).toContain('File size too large. Please select a file under 50MB'); // upload rules
    expect(found).toContain('Delete for me is unavailable for pinned messages'); // a refusal reason
    expect(found).toContain('Bad request'); // the edge's own
    expect(found.size).toBeGreaterThan(90);

    const patterns = new Set(SWEDISH_PATTERNS.map((p) => shape(p.en)));
    const missing = texts.filter(
      (t) => !CLIENT_TRANSLATED.has(t.text) && !Object.hasOwn(SWEDISH, t.text) && !patterns.has(t.text),
    );
    expect(missing.map((t) => `${t.where}: ${t.text}`)).toEqual([]);

    const stale = [...Object.keys(SWEDISH), ...SWEDISH_PATTERNS.map((p) => shape(p.en)), ...CLIENT_TRANSLATED].filter(
      (text) => !found.has(text),
    );
    expect(stale).toEqual([]);
  });

  it('keeps each text to one owner: spec §8 texts are the client’s, the rest the table’s', () => {
    for (const text of CLIENT_TRANSLATED) expect(KNOWN_ERRORS, text).toHaveProperty([text]);
    for (const text of Object.keys(SWEDISH)) expect(KNOWN_ERRORS[text], text).toBeUndefined();
    for (const [english, swedish] of Object.entries(SWEDISH)) {
      expect(swedish.trim(), english).not.toBe('');
      expect(swedish, english).not.toBe(english);
    }
    for (const pattern of SWEDISH_PATTERNS) {
      expect(patternHoles(pattern.sv).sort(), pattern.en).toEqual(patternHoles(pattern.en).sort());
      expect(new Set(patternHoles(pattern.en)).size, pattern.en).toBe(patternHoles(pattern.en).length);
    }
  });

  it('fills a pattern with its values, translating the words among them', () => {
    expect(swedishFor('At most 10 reactions per comment')).toBe('Högst 10 reaktioner per kommentar');
    expect(swedishFor('The attached file is not an image')).toBe('Den bifogade filen är inte en bild');
    expect(swedishFor('Unknown user (member 12)')).toBe('Okänd användare (medlem 12)');
    expect(swedishFor('Too many PIN requests for this number. Try again in 12 minutes.')).toBe(
      'För många begäranden om PIN-kod för det här numret. Försök igen om 12 minuter.',
    );
    expect(swedishFor('Too many PIN requests for this number. Try again in 1 minute.')).toBe(
      'För många begäranden om PIN-kod för det här numret. Försök igen om 1 minut.',
    );
    expect(swedishFor('Message-Count must be a whole number from 0 to 50')).toBe(
      'Message-Count måste vara ett heltal från 0 till 50',
    );
    expect(swedishFor('A text the server never sends')).toBeNull();
  });

  it('words schema refusals from their keyword', () => {
    expect(swedishSchemaMessage('pin', { keyword: 'type', params: { type: 'string' } })).toBe(
      'Ogiltigt värde för pin: måste vara en text',
    );
    expect(swedishSchemaMessage('limit', { keyword: 'maximum', params: { limit: 100, comparison: '<=' } })).toBe(
      'Ogiltigt värde för limit: får vara högst 100',
    );
    expect(swedishSchemaMessage('name', { keyword: 'maxLength', params: { limit: 50 } })).toBe(
      'Ogiltigt värde för name: får vara högst 50 tecken',
    );
    expect(swedishSchemaMessage(null, { keyword: 'somethingNew', params: {} })).toBe('Ogiltig begäran: ogiltigt värde');
  });

  it('reads the language from Accept-Language: sv or en, anything else English', () => {
    const language = (value?: string) => requestLanguage(value === undefined ? {} : { 'accept-language': value });
    expect(language()).toBe('en');
    expect(language('sv')).toBe('sv');
    expect(language('SV-se')).toBe('sv');
    expect(language('fi, sv-FI;q=0.7, en;q=0.3')).toBe('sv');
    expect(language('*')).toBe('en');
    expect(language('sv;q=0')).toBe('en');
    expect(language('nb, da')).toBe('en');
  });
});

/** A table pattern as the scan writes a template: each value as `{}`. */
function shape(pattern: string): string {
  return pattern.replace(/\{\w+\}/g, '{}');
}
