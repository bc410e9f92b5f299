import type { SearchDoc } from '../../src/engine/search/documents';

/**
 * The generated messages the search benchmarks share (issues 13 and 24): a seeded Zipf text over a
 * 20,000-word vocabulary, the same on every run, so every index is measured on the same corpus.
 */

/** The same text on every run: a seeded generator (mulberry32). */
export function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = 'ka fe mö te mor gon lun ch kvä ll smör gås fi ba ån ge ln sam pai jum pa be sok pa gi se ko lah ma kan si ang ru mah me et ing cof fee har bour pro ject'.split(' ');

/**
 * A vocabulary as chats have one: 20,000 words made of syllables (so prefixes are shared as in real words,
 * with diacritics), used with Zipf frequencies (the 1st word about twice as often as the 2nd, …).
 */
export function vocabulary(random: () => number): { words: string[]; pick: () => string } {
  const seen = new Set<string>();
  const words: string[] = [];
  while (words.length < 20_000) {
    const n = 1 + Math.floor(random() * 4);
    const word = Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
    if (seen.has(word)) continue;
    words.push(word);
    seen.add(word);
  }
  const weights = words.map((_, i) => 1 / (i + 1) ** 1.07);
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) cumulative.push((sum += w));
  const pick = () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo] as string;
  };
  return { words, pick };
}

export function messages(count: number, seed = 1): SearchDoc[] {
  return [...eachMessage(count, seed)];
}

/** The same messages one at a time: 1,000,000 of them are generated in slices, never all held at once. */
export function* eachMessage(count: number, seed = 1): Generator<SearchDoc> {
  const random = generator(seed);
  const { pick } = vocabulary(generator(7));
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    const length = 3 + Math.floor(random() * 15);
    const text = Array.from({ length }, pick).join(' ');
    yield {
      key: `m:${id}`,
      kind: 'message',
      conversationId: 1 + (i % 100),
      group: `chat:${1 + (i % 100)}`,
      channelId: null,
      communityId: null,
      postId: null,
      id,
      stid: `s${id}`,
      userId: 1 + (i % 7),
      text,
      createdAt: 1_700_000_000_000 + id * 1000,
    };
  }
}

/**
 * What people search for: two words of the vocabulary's middle (ranks 50 to 2,000: not its most common
 * words, which say little), the second typed only part way (its first 3 letters).
 */
export function queries(count: number, from = 50, to = 2000): string[] {
  const random = generator(3);
  const { words } = vocabulary(generator(7));
  const word = () => words[from + Math.floor(random() * (to - from))] as string;
  return Array.from({ length: count }, () => `${word()} ${word().slice(0, 3)}`);
}
