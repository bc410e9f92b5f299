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
  return url.hostname ? url.href : null;
}

function matches(text: string): NonNullable<ReturnType<LinkifyIt["match"]>> {
  try {
    return linkify.match(text) ?? [];
  } catch {
    // A string the detector cannot take stays plain text; it must never break the row that shows it.
    return [];
  }
}

export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of matches(text)) {
    const href = safeHref(match.schema === '' ? `https://${match.raw}` : match.url);
    if (!href || match.index < last) continue;
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) });
    parts.push({ kind: 'link', text: match.text, href });
    last = match.lastIndex;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
