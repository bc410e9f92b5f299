import fc from 'fast-check';
import type { TFunction } from 'i18next';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LastMessagePreview } from '../../../src/engine/api';
import { notificationBody } from '../../../src/engine/rules/notify';
import { fold, wordSpans, words } from '../../../src/engine/search/fold';
import { buildSnippet } from '../../../src/engine/search/snippet';
import type { Conversation, EventType, Message } from '../../../src/protocol/entities';
import { reactionUserNames } from '../../../src/ui/chat/actions/actionRules';
import { excerpt } from '../../../src/ui/chat/comments/threadText';
import { truncate } from '../../../src/ui/chat/composer/sendRules';
import { eventText } from '../../../src/ui/chat/message/eventText';
import { MessageText } from '../../../src/ui/chat/message/MessageText';
import { avatarColor, initials } from '../../../src/ui/common/avatarColor';
import { errorText, KNOWN_ERRORS } from '../../../src/ui/common/errorText';
import { LinkedText } from '../../../src/ui/common/LinkedText';
import { safeHref, splitLinks } from '../../../src/ui/common/links';
import { createI18n } from '../../../src/ui/i18n';
import { previewText } from '../../../src/ui/inbox/preview';
import { HOSTILE_CORPUS, hostileText, SAFE_LINK } from '../../support/hostileText';

/**
 * Issue 20: no text breaks rendering. Every text helper and renderer the UI has gets arbitrary strings (full
 * Unicode, lone surrogates, broken percent escapes, link- and markup-shaped text) and the fixed corpus: none
 * throws, and nothing but http, https and mailto ever becomes a link.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const run = <T extends unknown[]>(property: fc.IProperty<T>) => fc.assert(property, { numRuns: RUNS, seed: 20 });

let translators: TFunction[] = [];
beforeAll(async () => {
  translators = [(await createI18n('en')).t, (await createI18n('sv')).t];
});

const EVENT_TYPES: (EventType | null)[] = [
  'conversation_renamed',
  'conversation_description_changed',
  'conversation_picture_change',
  'user_added',
  'user_removed',
  'user_renamed',
  null,
];

/** An override or isolate in one of our sentences would turn the rest of it (and the time beside it) around. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** Every href in rendered markup. */
const hrefsOf = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');

function expectOnlySafeLinks(html: string): void {
  for (const href of hrefsOf(html)) expect(href).toMatch(SAFE_LINK);
}

describe('hostile text: links', () => {
  it('splits any string into parts that give the string back, linking only http, https and mailto', () => {
    run(
      fc.property(hostileText, (text) => {
        const parts = splitLinks(text);
        expect(parts.map((p) => p.text).join('')).toBe(text);
        for (const part of parts) if (part.kind === 'link') expect(part.href).toMatch(SAFE_LINK);
        const href = safeHref(text);
        if (href !== null) expect(href).toMatch(SAFE_LINK);
      }),
    );
  });

  it('renders any string as message text, post and description, with rel="noopener noreferrer" on every link', () => {
    run(
      fc.property(hostileText, (text) => {
        for (const element of [createElement(MessageText, { text }), createElement(LinkedText, { text, className: 'x' })]) {
          const html = renderToStaticMarkup(element);
          expectOnlySafeLinks(html);
          const links = html.match(/<a /g)?.length ?? 0;
          expect(html.match(/rel="noopener noreferrer"/g)?.length ?? 0).toBe(links);
        }
      }),
    );
  });

  it('renders the fixed corpus', () => {
    for (const { kind, text } of HOSTILE_CORPUS) {
      expect(() => renderToStaticMarkup(createElement(MessageText, { text })), kind).not.toThrow();
      expect(splitLinks(text).map((p) => p.text).join(''), kind).toBe(text);
    }
    // The message of the issue, and what the link finder now finds that the old rule did not.
    expect(splitLinks('mailto:a%E0@b.se').every((p) => p.kind === 'text' || SAFE_LINK.test(p.href))).toBe(true);
    expect(splitLinks('see example.se and anna@example.se')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'example.se', href: 'https://example.se/' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'anna@example.se', href: 'mailto:anna@example.se' },
    ]);
  });
});

describe('hostile text: names, previews, events, notifications, snippets', () => {
  const member = (id: number, nickname: string) => ({ user: { id, user_id: id, nickname }, is_admin: false });

  it('words any preview, in both languages', () => {
    run(
      fc.property(
        hostileText,
        hostileText,
        fc.constantFrom(...EVENT_TYPES),
        fc.constantFrom('text', 'system') as fc.Arbitrary<Message['type']>,
        fc.constantFrom(null, 'image', 'link', 'file', 'event') as fc.Arbitrary<LastMessagePreview['attachmentType']>,
        (text, name, eventType, type, attachmentType) => {
          const preview: LastMessagePreview = {
            messageId: 1,
            userId: 2,
            fromSelf: false,
            text,
            type,
            attachmentType,
            eventType,
            event: { name, description: text, user_id: 3, user_ids: [3, 1], old_nickname: name, new_nickname: text },
            names: { 2: name, 3: text },
            senderName: name,
            selfId: 1,
            createdAt: text,
            edited: false,
            deleted: false,
          };
          for (const t of translators) expect(previewText(preview, t)).not.toMatch(BIDI_CONTROL);
        },
      ),
    );
  });

  it('says any event with any names, in both languages', () => {
    run(
      fc.property(hostileText, hostileText, fc.constantFrom(...EVENT_TYPES), (name, other, eventType) => {
        const conversation = { users: [member(1, name), member(2, other)] } as unknown as Conversation;
        const message = {
          id: 1,
          user_id: 2,
          type: 'system',
          message: other,
          attachment: { type: 'event', event_type: eventType, event: { name, description: other, user_id: 1, old_nickname: other, new_nickname: name } },
        } as unknown as Message;
        for (const t of translators) expect(eventText(message, conversation, 1, t)).not.toMatch(BIDI_CONTROL);
      }),
    );
  });

  it('shortens, initials, colours and names anything', () => {
    run(
      fc.property(hostileText, (text) => {
        expect(typeof notificationBody(text)).toBe('string');
        expect(typeof initials(text)).toBe('string');
        expect(avatarColor(text)).toMatch(/^#[0-9a-f]{6}$/);
        expect(typeof excerpt(text)).toBe('string');
        expect(typeof truncate(text)).toBe('string');
        expect(reactionUserNames([1, 2, 3], { users: [member(2, text)] } as unknown as Conversation, 1, { self: 'You', unknown: text })).toHaveLength(3);
        // A message the UI does not know is shown as it is (KNOWN_ERRORS' own keys only, not "constructor").
        if (text && !Object.hasOwn(KNOWN_ERRORS, text)) for (const t of translators) expect(errorText(new Error(text), t)).toBe(text);
      }),
    );
  });

  it('folds, splits and snips any text for search', () => {
    run(
      fc.property(hostileText, hostileText, (text, query) => {
        expect(typeof fold(text)).toBe('string');
        const terms = [...words(text).slice(0, 3), ...words(query)];
        for (const span of wordSpans(text)) expect(span.end).toBeGreaterThan(span.start);
        const snippet = buildSnippet(text, terms);
        for (const part of snippet) expect(typeof part.text).toBe('string');
      }),
    );
  });
});
