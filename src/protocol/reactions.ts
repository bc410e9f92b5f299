/** Long enough for any single emoji, modifiers and ZWJ sequences included (the longest are under 20 units). */
export const REACTION_MAX_UNITS = 32;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** One pictograph, optionally with a skin-tone modifier or the emoji presentation selector (VS16). */
const ELEMENT = String.raw`\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F)?`;
/** One pictograph or several joined by ZWJ (families, professions), with an optional trailing VS16. */
const PICTOGRAPH = new RegExp(String.raw`^${ELEMENT}(?:\u200D${ELEMENT})*$`, 'u');
const FLAG = /^\p{Regional_Indicator}{2}$/u;
/** Subdivision flags: a black flag, tag characters, a cancel tag. */
const TAG_FLAG = /^\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}$/u;
const KEYCAP = /^[0-9#*]\uFE0F?\u20E3$/u;

/**
 * A reaction is one emoji (spec §3): a single grapheme that is a pictograph (with at most a skin tone or
 * VS16 on each part of a ZWJ sequence), a flag or a keycap. Any other mark, such as a combining accent on
 * an emoji, is refused, as is text, so a reaction can never carry a message of its own. Shared by the
 * client and the server.
 */
export function isValidReaction(raw: unknown): raw is string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > REACTION_MAX_UNITS) return false;
  let count = 0;
  for (const _ of graphemes.segment(raw)) if (++count > 1) return false;
  return PICTOGRAPH.test(raw) || FLAG.test(raw) || TAG_FLAG.test(raw) || KEYCAP.test(raw);
}
