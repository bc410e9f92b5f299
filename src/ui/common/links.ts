/**
 * Splits message text into plain runs and links (design.md §5): only http, https and mailto become links;
 * everything else, `javascript:` included, stays text. The UI renders the parts as React nodes, never HTML.
 */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// A candidate is a run without spaces that starts with a scheme or "www."; the scheme is checked after.
const CANDIDATE = /\b(?:[a-z][a-z0-9+.-]*:[^\s<>"]+|www\.[^\s<>"]+)/gi;
const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
// Punctuation that ends a sentence is not part of the link ("see https://x.se.").
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"', ')', ']', '}']);

/** Drops sentence punctuation from the end, but keeps a closing bracket the URL opened ("…/Moby_(novel)"). */
function trimTrailing(candidate: string): string {
  let end = candidate.length;
  while (end > 0 && TRAILING.has(candidate[end - 1] ?? '')) {
    const last = candidate[end - 1];
    if (last === ')') {
      const head = candidate.slice(0, end);
      const opens = head.split('(').length - 1;
      const closes = head.split(')').length - 1;
      if (closes <= opens) break;
    }
    end -= 1;
  }
  return candidate.slice(0, end);
}

/** The link target of a candidate, or null when it is not a safe, well-formed URL. */
export function safeHref(candidate: string): string | null {
  const withScheme = /^www\./i.test(candidate) ? `https://${candidate}` : candidate;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (!SAFE_SCHEMES.has(url.protocol)) return null;
  if (url.protocol !== 'mailto:' && !url.hostname) return null;
  if (url.protocol === 'mailto:' && !/^[^@\s]+@[^@\s]+$/.test(decodeURIComponent(url.pathname))) return null;
  return url.href;
}

export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  const push = (kind: 'text', value: string) => {
    if (!value) return;
    const prev = parts[parts.length - 1];
    if (prev?.kind === kind) prev.text += value;
    else parts.push({ kind, text: value });
  };
  for (const match of text.matchAll(CANDIDATE)) {
    const start = match.index;
    const candidate = trimTrailing(match[0]);
    const href = safeHref(candidate);
    if (!href) continue;
    push('text', text.slice(last, start));
    parts.push({ kind: 'link', text: candidate, href });
    last = start + candidate.length;
  }
  push('text', text.slice(last));
  return parts;
}
