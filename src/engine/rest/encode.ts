/**
 * Body and URL encodings of docs/server.md: "form" is x-www-form-urlencoded with bracket keys
 * (`member[0][value]=…`, `settings[reply_to]=1`), "json" is JSON, ids in paths are escaped.
 */
import type { Id } from '../contract/restInputs';

export type FormInput = string | number | undefined | readonly FormInput[] | { readonly [key: string]: FormInput };

/** Encodes nested fields with bracket keys; undefined values are left out, so optional fields stay unsent. */
export function encodeForm(fields: { readonly [key: string]: FormInput }): string {
  const params = new URLSearchParams();
  const add = (key: string, value: FormInput): void => {
    if (value === undefined) return;
    if (typeof value === 'string' || typeof value === 'number') {
      params.append(key, String(value));
    } else if (isFormList(value)) {
      value.forEach((item, index) => add(`${key}[${index}]`, item));
    } else {
      for (const [name, item] of Object.entries(value)) add(`${key}[${name}]`, item);
    }
  };
  for (const [name, value] of Object.entries(fields)) add(name, value);
  return params.toString();
}

// Array.isArray does not narrow a readonly array type out of a union; this guard does.
function isFormList(value: FormInput): value is readonly FormInput[] {
  return Array.isArray(value);
}

export type QueryInput = Readonly<Record<string, string | number | boolean | undefined>>;

/** `?a=1&b=2`, or '' when every value is undefined. */
export function encodeQuery(query: QueryInput): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** Spec §7 flags ("1 or 0"). */
export function flag(on: boolean): '1' | '0' {
  return on ? '1' : '0';
}

const ID_MAX_LENGTH = 64;

/** The id escaped for a path, or null when it cannot name anything (not positive, empty, too long). */
export function pathId(id: Id): string | null {
  if (typeof id === 'number') return Number.isSafeInteger(id) && id > 0 ? String(id) : null;
  const text = id.trim();
  return text === '' || text.length > ID_MAX_LENGTH ? null : encodeURIComponent(text);
}

/** Joins an API base and a path, whatever slashes the base (a host override typed by hand) ends with. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
