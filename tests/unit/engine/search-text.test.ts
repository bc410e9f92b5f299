import { describe, expect, it } from 'vitest';
import { fold, words } from '../../../src/engine/search/fold';
import { buildSnippet } from '../../../src/engine/search/snippet';

const marked = (parts: readonly { text: string; match: boolean }[]) =>
  parts.map((p) => (p.match ? `[${p.text}]` : p.text)).join('');

describe('search folding', () => {
  it('drops case and diacritics for English, Swedish and Indonesian', () => {
    expect(fold('Kafé')).toBe('kafe');
    expect(fold('Åsa ÄTER smörgås')).toBe('asa ater smorgas');
    expect(fold('Naïve RÉSUMÉ')).toBe('naive resume');
    expect(fold('Selamat PAGI')).toBe('selamat pagi');
    expect(fold('Søren Æble straße')).toBe('soren aeble strasse');
  });

  it('splits text into words of letters and digits, accents kept within the word', () => {
    expect(words('Vi ses på Kafé-Ön, kl. 18:30!')).toEqual(['Vi', 'ses', 'på', 'Kafé', 'Ön', 'kl', '18', '30']);
    // A decomposed é (e + combining accent) is still one word.
    expect(words('Kafe\u0301 nu')).toEqual(['Kafe\u0301', 'nu']);
  });
});

describe('search snippets', () => {
  it('marks every matched word and keeps the text around the first', () => {
    expect(marked(buildSnippet('Ska vi ses på Kafé Ö? Kafé är bäst.', ['kafe']))).toBe('Ska vi ses på [Kafé] Ö? [Kafé] är bäst.');
  });

  it('keeps about 40 characters either side, cut between words, with an ellipsis where text was left out', () => {
    const before = 'one two three four five six seven eight nine ten eleven twelve';
    const after = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda';
    const parts = buildSnippet(`${before} café ${after}`, ['cafe']);
    const text = marked(parts);
    expect(text).toBe('…six seven eight nine ten eleven twelve [café] alpha beta gamma delta epsilon zeta eta…');
    expect(parts.filter((p) => p.match)).toEqual([{ text: 'café', match: true }]);
  });

  it('puts a long message on one line', () => {
    expect(marked(buildSnippet('hej\n\nmöts vid\tbron', ['mots']))).toBe('hej [möts] vid bron');
  });
});
