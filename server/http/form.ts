/**
 * Parses application/x-www-form-urlencoded bodies with bracket keys (`member[0][name]=x`) into nested
 * objects and arrays, the shape spec §7's form payloads use. Keys that would reach Object.prototype are dropped.
 */
export type FormValue = string | FormObject | FormValue[];
export interface FormObject {
  [key: string]: FormValue;
}

const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);
const MAX_DEPTH = 4;
const MAX_INDEX = 1000;
/** More pairs than any form of spec §7 needs (256 members × 4 fields + settings); the rest is refused. */
export const MAX_PAIRS = 2000;

export class FormTooLargeError extends Error {}

/** Next free index per node for `a[]=` appends, so appending stays linear. */
const nextIndex = new WeakMap<FormObject, number>();

function splitKey(key: string): string[] | null {
  const first = key.indexOf('[');
  if (first === -1) return [key];
  const parts = [key.slice(0, first)];
  const rest = key.slice(first);
  const re = /\[([^[\]]*)\]/g;
  let consumed = 0;
  for (let m = re.exec(rest); m; m = re.exec(rest)) {
    if (m.index !== consumed) return null;
    parts.push(m[1] ?? '');
    consumed = re.lastIndex;
  }
  return consumed === rest.length ? parts : null;
}

export function parseForm(body: string): FormObject {
  const root: FormObject = Object.create(null) as FormObject;
  let pairs = 0;
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    if (++pairs > MAX_PAIRS) throw new FormTooLargeError(`A form may have at most ${MAX_PAIRS} fields`);
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    const value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    const parts = splitKey(key);
    if (!parts || parts.length > MAX_DEPTH || parts.some((p) => FORBIDDEN.has(p)) || parts[0] === '') continue;
    assign(root, parts, value);
  }
  return toArrays(root) as FormObject;
}

function assign(target: FormObject, parts: string[], value: string): void {
  let node = target;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i] as string;
    const existing = node[part];
    if (existing === undefined || typeof existing === 'string' || Array.isArray(existing)) {
      const child: FormObject = Object.create(null) as FormObject;
      node[part] = child;
      node = child;
    } else {
      node = existing;
    }
  }
  const last = parts[parts.length - 1] as string;
  if (last === '') {
    // `a[]=1&a[]=2`: append under the next free index.
    let i = nextIndex.get(node) ?? 0;
    while (node[String(i)] !== undefined) i++;
    if (i > MAX_INDEX) return;
    node[String(i)] = value;
    nextIndex.set(node, i + 1);
  } else {
    node[last] = value;
  }
}

/** Objects whose keys are all small non-negative integers become arrays, in index order. */
function toArrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted: FormObject = Object.create(null) as FormObject;
  for (const k of keys) converted[k] = toArrays(value[k] as FormValue);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k) && Number(k) <= MAX_INDEX)) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => converted[String(k)] as FormValue);
  }
  return { ...converted };
}
