/**
 * How search folds text (issue 13): case and diacritics go, so `å` and `ä` find `a`, `ö` finds `o` and `kafe`
 * finds `Kafé`, for English, Swedish and Indonesian alike. A rule of its own so that the message search's
 * index and the chats list's name filter (issue 23) fold alike: what finds a chat's messages finds its name.
 */

/** Letters NFD does not decompose into a base letter and a mark. */
const LIGATURES: Readonly<Record<string, string>> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', đ: 'd', ł: 'l', ı: 'i' };

/** Lower case, no combining marks, the ligatures above spelt out. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[øæœßđłı]/g, (c) => LIGATURES[c] ?? c);
}
