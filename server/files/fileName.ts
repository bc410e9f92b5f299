import path from 'node:path';

/**
 * What a file name may not hold (issue 12): C0 and C1 controls, line and paragraph separators, and the
 * bidi controls (U+061C, U+200E/F, U+202A–E, U+2066–9) with which `invoice\u202Egnp.exe` shows as
 * `invoiceexe.png`; quotes, backslashes and slashes, which a download header or a path would misread; and
 * lone surrogates, which no header can encode.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is stripped
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"\\/\p{Cs}]/gu;

/** The name an upload is shown and downloaded under: its base name without what UNSAFE names, at most 200 characters. */
export function cleanFileName(name: string | undefined): string {
  const base = path.basename(name ?? '').replace(UNSAFE, '').trim();
  // By code point: a cut between the halves of a surrogate pair would leave one alone.
  return Array.from(base).slice(0, 200).join('') || 'file';
}
