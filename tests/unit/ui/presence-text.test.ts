import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import enChat from '../../../src/locales/en/chat.json';
import svChat from '../../../src/locales/sv/chat.json';
import { presenceText } from '../../../src/ui/common/presenceText';

const translator = async (lng: 'en' | 'sv') => {
  const i18n = i18next.createInstance();
  await i18n.init({ lng, resources: { en: { translation: { chat: enChat } }, sv: { translation: { chat: svChat } } }, interpolation: { escapeValue: false } });
  return i18n.t;
};

const at = (y: number, m: number, d: number, h: number, min: number) => new Date(y, m - 1, d, h, min);
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

describe('presence text (issue 23)', () => {
  it('says online, or when last seen in the app’s date words, in English and Swedish', async () => {
    const now = at(2026, 11, 27, 16, 30);
    const en = await translator('en');
    const sv = await translator('sv');
    expect(presenceText(null, now, 'en', en)).toBeNull();
    expect(presenceText({ online: true, lastSeen: 0 }, now, 'en', en)).toBe('online');
    expect(presenceText({ online: false, lastSeen: seconds(at(2026, 11, 27, 14, 2)) }, now, 'en', en)).toBe('last seen today at 14:02');
    expect(presenceText({ online: false, lastSeen: seconds(at(2026, 11, 26, 9, 5)) }, now, 'en', en)).toBe('last seen yesterday at 09:05');
    expect(presenceText({ online: false, lastSeen: seconds(at(2026, 11, 3, 14, 2)) }, now, 'en', en)).toBe('last seen Nov 3 at 14:02');
    expect(presenceText({ online: false, lastSeen: seconds(at(2026, 11, 27, 14, 2)) }, now, 'sv', sv)).toBe('senast sedd idag kl. 14:02');
    expect(presenceText({ online: false, lastSeen: seconds(at(2026, 11, 26, 9, 5)) }, now, 'sv', sv)).toBe('senast sedd igår kl. 09:05');
    expect(presenceText({ online: false, lastSeen: seconds(at(2026, 11, 3, 14, 2)) }, now, 'sv', sv)).toBe('senast sedd 3 nov. kl. 14:02');
    // Offline with no time is nothing known.
    expect(presenceText({ online: false, lastSeen: 0 }, now, 'en', en)).toBeNull();
  });
});
