import type { IncomingHttpHeaders } from 'node:http';
import { CLIENT_TRANSLATED, swedishFor } from './messages.sv';

/** The languages the server writes its messages in (spec: en and sv). */
export type ServerLanguage = 'en' | 'sv';

/** A text the error handler has in both languages already (a schema refusal, Fastify's own text). */
export interface Localized {
  en: string;
  sv: string;
}

/**
 * The language a request asks for: the first of `sv` and `en` (any region: `sv-SE`) in its
 * Accept-Language, by q-value; English when it names neither, or has none.
 */
export function requestLanguage(headers: IncomingHttpHeaders): ServerLanguage {
  const header = headers['accept-language'];
  if (typeof header !== 'string' || header === '') return 'en';
  const ranges = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { base: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), order };
    })
    .filter((r) => r.q > 0 && !Number.isNaN(r.q))
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { base } of ranges) if (base === 'sv' || base === 'en') return base;
  return 'en';
}

/**
 * One of the server's messages in `language`. The server's code writes English; Swedish comes from the
 * table in messages.sv.ts. A text of spec §8's catalogue stays English (the client translates it); a text
 * the table lacks stays English too (tests/server/swedish-texts.test.ts keeps that from happening).
 */
export function localize(message: string | Localized, language: ServerLanguage): string {
  if (typeof message !== 'string') return message[language];
  if (language === 'en' || CLIENT_TRANSLATED.has(message)) return message;
  return swedishFor(message) ?? message;
}
