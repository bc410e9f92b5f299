/**
 * How text is split into words and folded for search (issue 13): case and diacritics go, so `å` and `ä`
 * find `a`, `ö` finds `o` and `kafe` finds `Kafé`, for English, Swedish and Indonesian alike. The index and
 * the snippet builder both use these rules, so what is marked is exactly what matched.
 */
import { fold } from '../rules/fold';

export { fold };

/** A word: letters, marks and digits (so `Kafé`, `2024` and `naïve` are one word each). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** The words of `text` as written (the index folds each: `foldedTerms`). */
export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** The words of `text` with where each starts and ends, for marking them in a snippet. */
export function wordSpans(text: string): { start: number; end: number; folded: string }[] {
  const spans: { start: number; end: number; folded: string }[] = [];
  for (const m of text.matchAll(WORD)) spans.push({ start: m.index, end: m.index + m[0].length, folded: fold(m[0]) });
  return spans;
}
