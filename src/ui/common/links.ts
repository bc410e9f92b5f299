import LinkifyIt from 'linkify-it';

/**
 * Splits text from other people into plain runs and links (design.md §5). Finding links is linkify-it's
 * work (schemes, bare domains such as `example.se`, e-mail addresses, brackets and trailing punctuation);
 * this file only decides what may become a link: http, https and mailto, checked again by the URL parser.
 * Everything else, `javascript:` included, stays text. Nothing here throws, whatever the string: text from
 * other people is hostile until rendered (design.md §4).
 */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

// Only the schemes we open; `//host` (scheme-relative) and ftp: stay text. Bare domains get https://
// (docs/ui.md "Links"): browsers upgrade to it anyway and it never sends the first request in the clear.
const linkify = new LinkifyIt().add('ftp:', null).add('//', null).set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false });

/** The link target of a URL, or null when it is not a safe, well-formed http, https or mailto address. */
export function safeHref(candidate: string): string | null {
  const withScheme = /^www\./i.test(candidate) ? `https://${candidate}` : candidate;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (!SAFE_SCHEMES.has(url.protocol)) return null;
  if (url.protocol === 'mailto:') return /^[^@\s/]+@[^@\s/]+$/.test(url.pathname) ? url.href : null;
  // `https://google.com@evil.se/` reads as google.com and opens evil.se: no link with a user name or password.
  return url.hostname && !url.username && !url.password ? url.href : null;
}

/**
 * The longest word (run without white space) that is searched for links. linkify-it's time grows with the
 * square of a word's length (a 24,000-character word took 3 s), and every member who scrolls past such a
 * message would pay it: a longer word stays text. Links never span white space, so words are searched one
 * by one, which gives the same links.
 */
export const LINK_WORD_MAX = 2_048;

type Found = { index: number; lastIndex: number; text: string; href: string };

function linksIn(word: string, offset: number, found: Found[]): void {
  if (word.length > LINK_WORD_MAX || !linkify.pretest(word)) return;
  let matched: ReturnType<LinkifyIt['match']>;
  try {
    matched = linkify.match(word);
  } catch {
    // A string the detector cannot take stays plain text; it must never break the row that shows it.
    return;
  }
  for (const match of matched ?? []) {
    const href = safeHref(match.schema === '' ? `https://${match.raw}` : match.url);
    if (href) found.push({ index: offset + match.index, lastIndex: offset + match.lastIndex, text: match.text, href });
  }
}

export function splitLinks(text: string): TextPart[] {
  const found: Found[] = [];
  for (const word of text.matchAll(/\S+/g)) linksIn(word[0], word.index, found);
  const parts: TextPart[] = [];
  let last = 0;
  for (const link of found) {
    if (link.index < last) continue;
    if (link.index > last) parts.push({ kind: 'text', text: text.slice(last, link.index) });
    parts.push({ kind: 'link', text: link.text, href: link.href });
    last = link.lastIndex;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
