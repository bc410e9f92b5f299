import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { EngineError } from '../../../src/engine/api';
import enErrors from '../../../src/locales/en/errors.json';
import svErrors from '../../../src/locales/sv/errors.json';
import enFailures from '../../../src/locales/en/failures.json';
import svFailures from '../../../src/locales/sv/failures.json';
import { errorText } from '../../../src/ui/common/errorText';
import { waitText } from '../../../src/ui/common/refusalText';

/** docs/ui.md "Refusals in the app's language": a coded refusal in the app's words, its wait in the user's. */

const translator = async (lng: 'en' | 'sv') => {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    // The refusals only the app meets (a send, an upload) are in the app group's failures texts (docs/ui.md).
    resources: { en: { translation: { errors: enErrors, failures: enFailures } }, sv: { translation: { errors: svErrors, failures: svFailures } } },
    interpolation: { escapeValue: false },
  });
  return i18n.t;
};

const refusal = (patch: Partial<EngineError>): EngineError => ({
  name: 'EngineError',
  status: 429,
  message: 'Too many wrong PIN codes. This number is locked; try again in 15 minutes.',
  fallback: 'Invalid PIN code',
  call: 'confirmPin',
  ...patch,
});

describe('refusal texts', () => {
  it('says a wait in whole minutes rounded up, whole hours from two hours on, and "later" without one', async () => {
    const en = await translator('en');
    const sv = await translator('sv');
    expect(waitText(1_000, en)).toBe('in 1 minute');
    expect(waitText(60_000, sv)).toBe('om 1 minut');
    expect(waitText(60_001, sv)).toBe('om 2 minuter');
    expect(waitText(15 * 60_000, sv)).toBe('om 15 minuter');
    expect(waitText(119 * 60_000, en)).toBe('in 119 minutes');
    expect(waitText(120 * 60_000, en)).toBe('in 2 hours');
    expect(waitText(24 * 3_600_000 - 60_000, sv)).toBe('om 24 timmar');
    expect(waitText(undefined, sv)).toBe('senare');
  });

  it('words a coded refusal from its code, whatever the message says, and a message without one as it came', async () => {
    const sv = await translator('sv');
    expect(errorText(refusal({ code: 'pin_locked', retryAfterMs: 900_000 }), sv)).toBe(
      'För många felaktiga PIN-koder: numret är låst tills vidare. Det öppnas igen om 15 minuter.',
    );
    expect(errorText(refusal({ code: 'message_too_long', status: 400, message: 'x' }), sv)).toBe(
      `Ett meddelande får vara högst ${new Intl.NumberFormat('sv').format(10_000)} tecken`,
    );
    // A code this build does not know (a newer server): the server's message, in the language asked for.
    const unknown = { ...refusal({ message: 'Numret är spärrat' }), code: 'number_barred' } as unknown as EngineError;
    expect(errorText(unknown, sv)).toBe('Numret är spärrat');
  });

  it('words a deactivated account (docs/server.md "Admin tool") in English and Swedish', async () => {
    const deactivated = refusal({ code: 'account_deactivated', status: 403, message: 'This account has been deactivated.' });
    expect(errorText(deactivated, await translator('en'))).toBe(
      'This account has been deactivated. Contact the service to have it opened again.',
    );
    expect(errorText(deactivated, await translator('sv'))).toBe(
      'Det här kontot har inaktiverats. Kontakta tjänsten för att få det öppnat igen.',
    );
  });

  it('words a picture the server could not read, or one with too many pixels, in the app’s language (docs/server.md "Uploads")', async () => {
    const en = await translator('en');
    const sv = await translator('sv');
    const unreadable = refusal({ code: 'image_unreadable', status: 415, message: 'x', call: 'uploadFile' });
    const tooLarge = refusal({ code: 'image_too_large', status: 413, message: 'x', call: 'uploadFile' });
    expect(errorText(unreadable, en)).toBe('The image could not be read: it is damaged or cut short.');
    expect(errorText(unreadable, sv)).toBe('Bilden gick inte att läsa: den är skadad eller ofullständig.');
    expect(errorText(tooLarge, en)).toBe('The image has too many pixels. Please select a smaller image.');
    expect(errorText(tooLarge, sv)).toBe('Bilden har för många pixlar. Välj en mindre bild.');
  });
});
