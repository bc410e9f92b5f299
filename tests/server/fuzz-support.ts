import fc from 'fast-check';
import { NUMBER_KEYWORD, type NumberRange } from '../../server/http/numbers';

/**
 * The hostile requests of the fuzz tests (fuzz-routes.test.ts, fuzz-socket.test.ts): bodies, queries, headers and path
 * parameters made of near-numbers, odd text, prototype keys and real values of a small world, so some
 * requests get deep into a route and the rest are refused at every layer on the way.
 */

/** How many requests per route (and frames per socket) a run makes: a few by default, more with FUZZ_RUNS. */
export const FUZZ_RUNS = Math.max(1, Number(process.env.FUZZ_RUNS) || 6);
/** The seed of a run: fixed by default, so `npm test` fuzzes the same requests every time; FUZZ_SEED changes it. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED) || 12;

/** A JSON text spliced in as it is: numbers JSON can write but JavaScript cannot hold. */
export class RawJson {
  constructor(readonly text: string) {}
}
/** An object as a list of pairs, so `__proto__` is a key like any other and keys may repeat. */
export class JsonObject {
  constructor(readonly pairs: readonly (readonly [string, JsonValue])[]) {}
}
export type JsonValue = string | number | boolean | null | RawJson | JsonObject | JsonValue[];

export function toJson(value: JsonValue): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonObject) return `{${value.pairs.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  return JSON.stringify(value) ?? 'null';
}

/** Percent-encoding of any text, lone surrogates included (encodeURIComponent throws on those). */
export function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}

/** Real values of the fuzzed world: what a path parameter or a field may name. */
export interface FuzzPool {
  /**
   * Values of a path parameter by the segment before it: `channels` for `/v1/channels/:id`, `users` for
   * `…/users/:userId`, `files` for `/files/:name`.
   */
  params: Record<string, readonly string[]>;
  /** Ids and texts a body or query may carry. */
  numbers: readonly number[];
  texts: readonly string[];
}

/** What JavaScript reads as a number that no column holds. */
const NOT_FINITE = ['Infinity', '-Infinity', '1e999', '-1e999', 'NaN'];
const NEAR_NUMBERS = [
  '1.5',
  '-1',
  '0',
  '-0',
  '9007199254740991',
  '9007199254740993',
  '99999999999999999999999',
  '',
  '12abc',
  '0x10',
  ' 5',
  '05',
  '1e3',
  '+5',
];
const ODD_TEXTS = [
  'null',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  '%00',
  '%',
  '\u0000',
  '\u202e',
  '😀',
  '👍🏽',
  'İı',
  "' OR 1=1 --",
  '"',
  '\\',
  '../..',
  'x'.repeat(3000),
];
/** Every field name the server reads somewhere, for routes to get the names of other routes too. */
const FIELDS = [
  'id',
  'text',
  'message',
  'client_id',
  'quoted_message_id',
  'post_id',
  'parent_comment_id',
  'comment_id',
  'message_ids',
  'reaction',
  'read',
  'is_admin',
  'image_id',
  'name',
  'description',
  'nickname',
  'email',
  'mode',
  'smart_mode_options',
  'interval_minutes',
  'type',
  'time_zone',
  'member',
  'settings',
  'broadcast',
  'force_group',
  'query',
  'phone_nr',
  'pin',
  'attachment',
  'files',
  'value',
  'limit',
  'before',
  'after',
  'around',
  'only_joined',
  'csp-report',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
];
const QUERY_KEYS = ['limit', 'before', 'after', 'around', 'post_id', 'parent_comment_id', 'only_joined', 'token', '__proto__'];
/** Content types of raw bodies: unknown, known but not matching the bytes, or missing their parameters. */
const RAW_TYPES = [
  'text/plain',
  'application/xml',
  'multipart/form-data',
  'application/csp-report',
  'application/json',
  '',
  'x/y; a=b',
];
const RAW_NUMBERS = ['1e999', '-1e999', '1e-999', '-0', '9007199254740993', '1.0', '123456789012345678901234567890', '1E3'];
const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex'));

export type Identity = 'member' | 'outsider' | 'anonymous' | 'forged';

export interface FuzzFile {
  field: string;
  bytes: Uint8Array;
  name: string;
  type: string;
}

export type FuzzBody =
  | { kind: 'none' }
  | { kind: 'json'; text: string; contentType: string }
  | { kind: 'form'; text: string }
  | { kind: 'multipart'; fields: [string, string][]; file: FuzzFile | null }
  | { kind: 'raw'; contentType: string; bytes: Uint8Array };

export interface FuzzRequest {
  identity: Identity;
  params: Record<string, string>;
  query: string;
  headers: Record<string, string>;
  body: FuzzBody;
}

/**
 * What the fuzz knows of a route: its path parameters (by name, and the segment before each) and the JSON
 * schemas of its query and body (server/http/routeTable.ts).
 */
export interface FuzzTarget {
  params: readonly { name: string; after: string }[];
  schema: { querystring?: unknown; body?: unknown };
}

/** As much of a JSON schema as the fuzz reads. */
interface SchemaLike {
  type?: string | string[];
  properties?: Record<string, unknown>;
  required?: string[];
  items?: unknown;
  enum?: JsonValue[];
  minItems?: number;
  maxItems?: number;
  [NUMBER_KEYWORD]?: NumberRange;
}

/** Every property name of a JSON schema, at any depth. */
function propertyNames(schema: unknown, into: Set<string> = new Set()): Set<string> {
  const { properties, items } = (schema ?? {}) as SchemaLike;
  for (const [name, child] of Object.entries(properties ?? {})) {
    into.add(name);
    propertyNames(child, into);
  }
  if (items !== undefined) propertyNames(items, into);
  return into;
}

/** A JSON value as form (or query) pairs with bracket keys: `member[0][value]=…`. */
function formPairs(value: JsonValue, prefix: string, out: [string, string][] = []): [string, string][] {
  if (value instanceof JsonObject) for (const [k, v] of value.pairs) formPairs(v, prefix ? `${prefix}[${k}]` : k, out);
  else if (Array.isArray(value)) value.forEach((v, i) => formPairs(v, `${prefix}[${i}]`, out));
  else out.push([prefix, value instanceof RawJson ? value.text : value === null ? '' : String(value)]);
  return out;
}

const encodePairs = (pairs: readonly (readonly [string, string])[]) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');

/** The path parameters of a route URL (`/v1/channels/:id/posts` → id after `channels`). */
export function pathParams(url: string): FuzzTarget['params'] {
  return [...url.matchAll(/([^/]*)\/:(\w+)/g)].map((m) => ({ after: m[1] as string, name: m[2] as string }));
}

/** The arbitraries of one world. */
export function fuzzArbitraries(pool: FuzzPool) {
  const notQuiteNumber = fc.oneof(
    { arbitrary: fc.constantFrom(...NOT_FINITE), weight: 3 },
    { arbitrary: fc.constantFrom(...NEAR_NUMBERS), weight: 4 },
  );
  const hostileText = fc.oneof(
    { arbitrary: notQuiteNumber, weight: 7 },
    { arbitrary: fc.constantFrom(...ODD_TEXTS), weight: 2 },
    { arbitrary: fc.integer().map(String), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }), weight: 1 },
  );
  const realText = fc.oneof(fc.constantFrom(...pool.texts), fc.constantFrom(...pool.numbers).map(String));
  const text = fc.oneof({ arbitrary: hostileText, weight: 1 }, { arbitrary: realText, weight: 1 });

  const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
    { arbitrary: text, weight: 4 },
    { arbitrary: fc.constantFrom(...pool.numbers), weight: 3 },
    { arbitrary: fc.integer(), weight: 1 },
    { arbitrary: fc.double(), weight: 1 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: fc.constantFrom(...RAW_NUMBERS).map((t) => new RawJson(t)), weight: 2 },
  );

  /** A value its schema accepts, made of the world's real values. */
  const shaped = (schema: unknown): fc.Arbitrary<JsonValue> => {
    const s = (schema ?? {}) as SchemaLike;
    const rule = s[NUMBER_KEYWORD];
    if (rule) {
      const fits = pool.numbers.filter((n) => n >= rule.min && n <= rule.max);
      return fc.oneof(fc.constantFrom(rule.min, ...fits), fc.integer({ min: rule.min, max: Math.min(rule.max, rule.min + 100) }));
    }
    if (s.enum) return fc.constantFrom(...s.enum);
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.includes('object')) {
      const required = new Set(s.required ?? []);
      const fields = Object.entries(s.properties ?? {}).map(([name, child]) => {
        const pair = shaped(child).map((v): [string, JsonValue] => [name, v]);
        // Optional fields mostly left out: each one present (an attachment, a quote) is one more way to be refused.
        return required.has(name) ? pair : fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, pair);
      });
      return fc.tuple(...fields).map((pairs) => new JsonObject(pairs.filter((p) => p !== undefined)));
    }
    if (types.includes('array')) {
      return fc.array(shaped(s.items), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
    }
    if (types.includes('boolean')) return fc.boolean();
    if (types.includes('integer') || types.includes('number')) return fc.constantFrom(...pool.numbers);
    // A string, or a field the route checks by hand (`message: {}`): a text of the world.
    return realText;
  };

  /** A request to one route: its own fields come up most, every other name the server reads now and then. */
  const request = (target: FuzzTarget): fc.Arbitrary<FuzzRequest> => {
    const declared = [...propertyNames(target.schema.body, propertyNames(target.schema.querystring))];
    const own = declared.length > 0 ? declared : FIELDS;
    const field = fc.oneof(
      { arbitrary: fc.constantFrom(...own), weight: 6 },
      { arbitrary: fc.constantFrom(...FIELDS), weight: 2 },
      { arbitrary: text, weight: 1 },
    );
    const object = (value: fc.Arbitrary<JsonValue>, maxLength: number) =>
      fc.array(fc.tuple(field, value), { maxLength }).map((pairs) => new JsonObject(pairs));
    const nested: fc.Arbitrary<JsonValue> = fc.oneof(
      { arbitrary: scalar, weight: 5 },
      { arbitrary: fc.array(scalar, { maxLength: 4 }), weight: 1 },
      { arbitrary: object(scalar, 4), weight: 1 },
    );
    // One of the route's own fields, and nothing else, holding what is almost a number: the usual bug.
    const oneBadField = fc.tuple(
      fc.constantFrom(...own),
      fc.oneof(notQuiteNumber, fc.constantFrom(...RAW_NUMBERS).map((t) => new RawJson(t))),
    );
    // What the schema accepts with, often, one field made hostile: deep into the route, one bad value.
    const mutant: fc.Arbitrary<JsonValue> = fc.oneof(
      { arbitrary: notQuiteNumber, weight: 3 },
      { arbitrary: fc.constantFrom(...RAW_NUMBERS).map((t) => new RawJson(t)), weight: 2 },
      { arbitrary: scalar, weight: 2 },
      { arbitrary: fc.array(scalar, { maxLength: 2 }), weight: 1 },
    );
    const almostValid = (schema: unknown) =>
      fc.tuple(shaped(schema), fc.option(fc.tuple(fc.constantFrom(...own), mutant), { freq: 2 })).map(([value, change]) => {
        if (!change || !(value instanceof JsonObject)) return value;
        return new JsonObject([...value.pairs.filter(([k]) => k !== change[0]), change]);
      });
    const jsonBody = fc.oneof(
      { arbitrary: object(nested, 6), weight: 4 },
      { arbitrary: nested, weight: 1 },
      { arbitrary: oneBadField.map((pair) => new JsonObject([pair])), weight: 2 },
      { arbitrary: almostValid(target.schema.body), weight: target.schema.body ? 6 : 1 },
    );

    const suffixes = [
      ...['[]', '[0]', '[1000]', '[x]', '[0][value]', '[0][is_admin]', '[reply_to]', '[__proto__]'],
      ...['[a][b][c][d]', '][', '['],
    ];
    const formKey = fc.oneof(
      { arbitrary: field, weight: 4 },
      { arbitrary: fc.tuple(fc.constantFrom(...own), fc.constantFrom(...suffixes)).map(([a, b]) => a + b), weight: 2 },
    );
    // Mostly one or two pairs: one bad value among many valid ones is what a route must tell apart.
    const pairs = (key: fc.Arbitrary<string>, maxLength: number) =>
      fc
        .oneof(
          { arbitrary: fc.array(fc.tuple(key, text), { minLength: 1, maxLength: 2 }), weight: 3 },
          fc.array(fc.tuple(key, text), { maxLength }),
        )
        .map(encodePairs);
    const formBody = fc.oneof(
      { arbitrary: pairs(formKey, 8), weight: 5 },
      { arbitrary: almostValid(target.schema.body).map((v) => encodePairs(formPairs(v, ''))), weight: target.schema.body ? 4 : 1 },
      { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 60 }), weight: 1 },
    );
    const fileBytes = fc.oneof(fc.constant(PNG), fc.uint8Array({ maxLength: 300 }), fc.constant(new Uint8Array(0)));
    const multipart = fc.record({
      fields: fc.array(fc.tuple(field, text), { maxLength: 4 }),
      file: fc.option(
        fc.record({
          field: fc.oneof(fc.constantFrom('file', 'image'), text),
          bytes: fileBytes,
          name: fc.oneof(fc.constantFrom('a.png', 'x.mp4', '../../etc/passwd', '', 'ü.jpg'), text),
          type: fc.constantFrom('image/png', 'video/mp4', 'text/html', 'application/octet-stream', ''),
        }),
      ),
    });
    const body: fc.Arbitrary<FuzzBody> = fc.oneof(
      { arbitrary: fc.constant<FuzzBody>({ kind: 'none' }), weight: 1 },
      {
        arbitrary: fc
          .tuple(jsonBody, fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'))
          .map(([value, contentType]): FuzzBody => ({ kind: 'json', text: toJson(value), contentType })),
        weight: 5,
      },
      { arbitrary: formBody.map((text): FuzzBody => ({ kind: 'form', text })), weight: 3 },
      { arbitrary: multipart.map(({ fields, file }): FuzzBody => ({ kind: 'multipart', fields, file })), weight: 2 },
      {
        arbitrary: fc
          .tuple(
            fc.constantFrom(...RAW_TYPES),
            fc.uint8Array({ maxLength: 200 }),
          )
          .map(([contentType, bytes]): FuzzBody => ({ kind: 'raw', contentType, bytes })),
        weight: 1,
      },
    );

    // Header values travel as Latin-1 without control characters; anything else fetch itself refuses.
    const headerText = text.map((t) => t.replace(/[^\x20-\x7e]/g, '').slice(0, 200));
    const headers = fc.record(
      {
        'Message-Count': headerText,
        Before: headerText,
        After: headerText,
        'Idempotency-Key': headerText,
        'Accept-Language': fc.constantFrom('sv', 'en', 'sv-SE,sv;q=0.9', '*', 'sv;q=abc', ''),
      },
      { requiredKeys: [] },
    );
    const queryKey = fc.oneof(
      { arbitrary: fc.constantFrom(...own), weight: 6 },
      { arbitrary: fc.constantFrom(...QUERY_KEYS), weight: 2 },
      { arbitrary: text, weight: 1 },
    );
    const query = fc.oneof(
      {
        arbitrary: fc.tuple(fc.constantFrom(...own), notQuiteNumber).map(([k, v]) => `${encode(k)}=${encode(v)}`),
        weight: 3,
      },
      { arbitrary: pairs(queryKey, 5), weight: 4 },
      {
        arbitrary: almostValid(target.schema.querystring).map((v) => encodePairs(formPairs(v, ''))),
        weight: target.schema.querystring ? 4 : 1,
      },
      { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((raw) => raw.replace(/[#\s]/g, '')), weight: 1 },
    );
    const params = fc.record(
      Object.fromEntries(
        target.params.map(({ name, after }) => [
          name,
          fc.oneof(
            { arbitrary: fc.constantFrom(...(pool.params[after] ?? pool.numbers.map(String))), weight: 6 },
            { arbitrary: hostileText, weight: 1 },
          ),
        ]),
      ),
    );
    return fc.record({
      identity: fc.constantFrom<Identity>('member', 'member', 'member', 'member', 'outsider', 'anonymous', 'forged'),
      params,
      query,
      headers,
      body,
    });
  };

  return { request };
}
