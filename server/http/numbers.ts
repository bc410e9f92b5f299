import type { FastifyError, FastifyServerOptions } from 'fastify';
import { type ApiError, badRequest } from './errors';

/**
 * The one rule for every number the server reads (issue 12): ids, limits, cursors, counts, whether they
 * come in a path, a query, a header, a form or JSON. A number is a whole number within its range, given as
 * a JSON number or as decimal digits with no sign, spaces, exponent or leading zero (`-` for negative
 * ranges). `Infinity`, `1e999`, `NaN`, `1.5`, `0x10`, `""`, `12abc`, arrays and objects are not numbers,
 * and neither is anything past 2^53 - 1, which JavaScript cannot hold exactly. A refusal names the field.
 */
export interface NumberRange {
  min: number;
  max: number;
}

/**
 * Every id of a row: SQLite's rowids and PostgreSQL's identities start at 1, and JavaScript holds them exactly
 * up to 2^53 - 1.
 */
export const ID_RANGE: NumberRange = { min: 1, max: Number.MAX_SAFE_INTEGER };
/** A websocket event id (`last_message_id`), where 0 means "none yet". */
export const EVENT_ID_RANGE: NumberRange = { min: 0, max: Number.MAX_SAFE_INTEGER };
/** A picture's id where 0 means "no picture" (PUT /v1/me, PUT /v2/conversations/{id}). */
export const IMAGE_ID_RANGE: NumberRange = { min: 0, max: Number.MAX_SAFE_INTEGER };

const DECIMAL = /^(?:0|-?[1-9]\d{0,15})$/;

/** The number `raw` stands for when it is a whole number in `range`; null for anything else. */
export function wholeNumber(raw: unknown, range: NumberRange): number | null {
  let n: number;
  if (typeof raw === 'number') n = raw;
  else if (typeof raw === 'string' && DECIMAL.test(raw)) n = Number(raw);
  else return null;
  if (!Number.isSafeInteger(n) || n < range.min || n > range.max) return null;
  // JSON's -0 is 0 to SQLite and to every comparison; keep it from showing up as "-0" anywhere.
  return n === 0 ? 0 : n;
}

/** The 400 of a number that broke the rule, naming the field as the client wrote it. */
function numberRefusal(field: string, range: NumberRange): ApiError {
  return badRequest(`${field} must be a whole number from ${range.min} to ${range.max}`);
}

/** A number the rule accepts, or the 400 naming `field`. */
function requireWholeNumber(raw: unknown, field: string, range: NumberRange): number {
  const n = wholeNumber(raw, range);
  if (n === null) throw numberRefusal(field, range);
  return n;
}

/** A number header (`Message-Count`, `Before`): absent is `fallback`; present, it obeys the rule. */
export function numberHeader<F>(
  raw: string | string[] | undefined,
  field: string,
  range: NumberRange,
  fallback: F,
): number | F {
  return raw === undefined ? fallback : requireWholeNumber(raw, field, range);
}

// ---- the rule as a JSON-schema keyword, for bodies, query strings and path parameters

export const NUMBER_KEYWORD = 'wholeNumber';

interface NumberKeywordSchema extends NumberRange {
  nullable?: boolean;
}

/**
 * The schema of a number field. It has no `type`, so AJV's type coercion (which turns `"Infinity"`,
 * `"1e3"` and `" 5"` into numbers) never sees it: the keyword parses the value and puts the number in its
 * place. With `nullable`, JSON null is accepted and stays null.
 */
export function numberSchema(range: NumberRange, options: { nullable?: boolean } = {}) {
  const rule: NumberKeywordSchema = { min: range.min, max: range.max, ...(options.nullable ? { nullable: true } : {}) };
  return { [NUMBER_KEYWORD]: rule } as const;
}

interface KeywordError {
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

interface DataContext {
  parentData: Record<string | number, unknown>;
  parentDataProperty: string | number;
}

interface KeywordValidate {
  (schema: NumberKeywordSchema, data: unknown, parentSchema?: unknown, context?: DataContext): boolean;
  errors?: KeywordError[];
}

const validate: KeywordValidate = (schema, data, _parentSchema, context) => {
  if (data === null && schema.nullable === true) return true;
  const n = wholeNumber(data, schema);
  if (n === null) {
    validate.errors = [
      {
        keyword: NUMBER_KEYWORD,
        message: `must be a whole number from ${schema.min} to ${schema.max}`,
        params: { min: schema.min, max: schema.max },
      },
    ];
    return false;
  }
  if (context) context.parentData[context.parentDataProperty] = n;
  return true;
};

// AJV's types as Fastify's validator sees them (its own AJV, not the one other tools bring along).
type AjvPlugins = NonNullable<NonNullable<FastifyServerOptions['ajv']>['plugins']>;
type AjvPlugin = Exclude<AjvPlugins[number], readonly unknown[]>;

/** The AJV plugin that teaches Fastify's validator the keyword (server/app.ts). */
export const numberRulePlugin: AjvPlugin = (ajv) =>
  ajv.addKeyword({ keyword: NUMBER_KEYWORD, schemaType: 'object', modifying: true, errors: true, validate });

/**
 * The refusal of a schema failure that was the number rule's, naming the field by its path in the body,
 * query or parameters (`limit`, `message_ids.3`); null for any other failure.
 */
export function schemaNumberRefusal(error: Pick<FastifyError, 'validation'> | undefined): ApiError | null {
  const first = error?.validation?.[0];
  if (first?.keyword !== NUMBER_KEYWORD) return null;
  const params = first.params as Partial<NumberRange>;
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'value';
  return numberRefusal(field, { min: Number(params.min), max: Number(params.max) });
}
