import { wordSpans } from './fold';

export type SnippetPart = { text: string; match: boolean };

/** Characters of context kept either side of the first matched word. */
export const SNIPPET_CONTEXT = 40;

/**
 * The text around the first word that matched (`terms`: the folded words of the index that matched), cut
 * at word boundaries with `…` where text was left out, and split so every matched word in it is marked.
 * Whitespace runs (line breaks) become one space: a result row is one line.
 */
export function buildSnippet(text: string, terms: readonly string[], context = SNIPPET_CONTEXT): SnippetPart[] {
  const matched = new Set(terms);
  const spans = wordSpans(text);
  const first = spans.find((s) => matched.has(s.folded));
  if (!first) return [{ text: oneLine(text.slice(0, 2 * context)) + (text.length > 2 * context ? '…' : ''), match: false }];
  let start = Math.max(0, first.start - context);
  let end = Math.min(text.length, first.end + context);
  // Never cut a word in two: widen to the word's start, or narrow past a cut word.
  const cutAtStart = spans.find((s) => s.start < start && s.end > start);
  if (cutAtStart) start = cutAtStart.end;
  const cutAtEnd = spans.find((s) => s.start < end && s.end > end);
  if (cutAtEnd) end = cutAtEnd.start;
  const parts: SnippetPart[] = [];
  const push = (t: string, match: boolean) => {
    if (t === '') return;
    const last = parts[parts.length - 1];
    if (last && last.match === match) last.text += t;
    else parts.push({ text: t, match });
  };
  if (start > 0) push('…', false);
  let at = start;
  for (const s of spans) {
    if (s.start < start || s.end > end || !matched.has(s.folded)) continue;
    push(oneLine(text.slice(at, s.start)), false);
    push(text.slice(s.start, s.end), true);
    at = s.end;
  }
  push(oneLine(text.slice(at, end)), false);
  if (end < text.length) push('…', false);
  if (parts[0] && !parts[0].match) parts[0].text = parts[0].text.replace(/^…\s+/, '…');
  return parts;
}

const oneLine = (t: string) => t.replace(/\s+/g, ' ');
