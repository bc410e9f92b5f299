/**
 * A text as a sentence of its own, so two texts shown one after the other (a banner's title and its reason,
 * issue 23) never run together: the catalogue's texts (spec §8) carry no full stop, server messages may.
 */
export function asSentence(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed === '' || /[.!?…:]$/u.test(trimmed) ? trimmed : `${trimmed}.`;
}
