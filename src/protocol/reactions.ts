/** Long enough for any single emoji, modifiers and ZWJ sequences included (the longest are under 20 units). */
export const REACTION_MAX_UNITS = 32;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const FLAG = /^\p{Regional_Indicator}{2}$/u;
const KEYCAP = /^[0-9#*]\uFE0F?\u20E3$/u;

/**
 * A reaction is one emoji (spec §3): a single grapheme that is pictographic, a flag or a keycap. Text is
 * refused so a reaction can never carry a message of its own. Shared by the client and the server.
 */
export function isValidReaction(raw: unknown): raw is string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > REACTION_MAX_UNITS) return false;
  let count = 0;
  for (const _ of graphemes.segment(raw)) if (++count > 1) return false;
  return PICTOGRAPHIC.test(raw) || FLAG.test(raw) || KEYCAP.test(raw);
}
