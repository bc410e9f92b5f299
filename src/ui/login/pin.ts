import { PIN_LENGTH } from '../../protocol/constants';

/** The PIN as one slot per box; '' is an empty box. */
export type PinDigits = readonly string[];

export const emptyPin = (): string[] => Array.from({ length: PIN_LENGTH }, () => '');

/** The stored pinCode (' ' for an empty box) as slots, and back. */
export const pinFromCode = (code: string): string[] =>
  emptyPin().map((_, i) => (/\d/.test(code[i] ?? '') ? (code[i] as string) : ''));
export const codeFromPin = (pin: PinDigits): string => pin.map((d) => d || ' ').join('').trimEnd();

/** Writes `digits` into the slots from `start` on; returns the slots and the box to focus next. */
export function fillPin(pin: PinDigits, start: number, digits: string): { pin: string[]; focus: number } {
  const next = [...pin];
  let at = start;
  for (const digit of digits) {
    if (at >= PIN_LENGTH) break;
    next[at] = digit;
    at += 1;
  }
  return { pin: next, focus: Math.min(at, PIN_LENGTH - 1) };
}
