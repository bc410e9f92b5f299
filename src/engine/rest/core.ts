import { REFUSAL_CODES, type RefusalCode } from '../../protocol/envelope';
import type { Language } from '../contract/types';
import { type EngineError, engineError } from '../errors';
import type { Id } from '../contract/restInputs';
import { encodeForm, encodeQuery, type FormInput, joinUrl, pathId, type QueryInput } from './encode';
import { fallbackFor, INVALID_CONVERSATION_ID, INVALID_PARAMETERS, type RestCallName } from './fallbacks';
import { apiHeaders } from './headers';
import { retryAfterMs } from './retryAfter';
import type { HttpMethod, HttpResponse, HttpTransport } from './transport';

/** What the client reads before every call, so a host override, a sign-out or a new language applies to the next one. */
export interface RestSession {
  apiBase: string;
  token: string | null;
  /**
   * The language the server's texts are asked for, sent as Accept-Language: the user's choice, else the one
   * the tabs show (docs/ui.md "Refusals in the app's language"); null or absent when neither is known (no header).
   */
  language?: Language | null;
}

export interface RestClientOptions {
  transport: HttpTransport;
  session: () => RestSession;
  /** The stable random id of this engine install (Client-Token), read before every call. */
  clientToken: string | (() => string);
  /** A call was answered 401: the engine clears the stored token and user id (spec §4). */
  onUnauthorized: () => void;
  /** Aborts every call in flight and refuses later ones: the engine stopped (issue 14). */
  lifetime?: AbortSignal;
}

/** A path with its ids still apart, so each is checked and escaped: built with the `path` tag. */
export interface ApiPath {
  readonly strings: readonly string[];
  readonly ids: readonly Id[];
}

export function path(strings: TemplateStringsArray, ...ids: Id[]): ApiPath {
  return { strings: [...strings], ids };
}

export interface CallSpec {
  call: RestCallName;
  method: HttpMethod;
  path: ApiPath;
  query?: QueryInput;
  /** Sent as x-www-form-urlencoded with bracket keys. */
  form?: { readonly [key: string]: FormInput };
  /** Sent as JSON. */
  json?: unknown;
  headers?: Record<string, string>;
  /** Another API host for this call (a country's own PIN endpoint, spec §7). */
  apiBase?: string;
  /** Cancels the call (a stopping engine's send); it then fails like a call that got no answer. */
  signal?: AbortSignal;
}

export interface UploadSpec {
  call: RestCallName;
  path: ApiPath;
  /** The multipart field the server reads the file from. */
  field: string;
  file: Blob;
  fileName?: string;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * Sends one call and unwraps the envelope of spec §7: the `data` of a success, else an EngineError with
 * the server's message. No answer, or one that is not an envelope, rejects with the call's spec §8
 * fallback and status 0 (or the 4xx status, when a proxy refused the request with a page of its own).
 */
export class RestCore {
  constructor(private readonly options: RestClientOptions) {}

  /** The call's own signal and the engine's lifetime, as one. */
  private signal(own: AbortSignal | undefined): { signal?: AbortSignal } {
    const signals = [own, this.options.lifetime].filter((s): s is AbortSignal => s !== undefined);
    if (signals.length === 0) return {};
    return { signal: signals.length === 1 ? signals[0]! : AbortSignal.any(signals) };
  }

  private clientToken(): string {
    const token = this.options.clientToken;
    return typeof token === 'function' ? token() : token;
  }

  async send<T>(spec: CallSpec): Promise<T> {
    const session = this.options.session();
    const base = spec.apiBase ?? session.apiBase;
    const url = joinUrl(base, this.resolvePath(spec.call, spec.path)) + encodeQuery(spec.query ?? {});
    const headers = { ...apiHeaders(this.clientToken(), session.token, session.language), ...spec.headers };
    let body: string | undefined;
    if (spec.form !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = encodeForm(spec.form);
    } else if (spec.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(spec.json);
    }
    return this.answer<T>(spec.call, session.token, () =>
      this.options.transport.request({
        method: spec.method,
        url,
        headers,
        ...(body !== undefined ? { body } : {}),
        ...this.signal(spec.signal),
      }),
    );
  }

  async upload<T>(spec: UploadSpec): Promise<T> {
    const session = this.options.session();
    const url = joinUrl(session.apiBase, this.resolvePath(spec.call, spec.path));
    const form = new FormData();
    const fileName = spec.fileName ?? (spec.file instanceof File ? spec.file.name : 'upload');
    form.append(spec.field, spec.file, fileName);
    return this.answer<T>(spec.call, session.token, () =>
      this.options.transport.upload({
        url,
        headers: apiHeaders(this.clientToken(), session.token, session.language),
        form,
        ...(spec.onProgress ? { onProgress: spec.onProgress } : {}),
        ...this.signal(spec.signal),
      }),
    );
  }

  /** An EngineError for a call refused before sending (spec §5); 400, as the server would answer it. */
  refusal(call: RestCallName, message: string): EngineError {
    return engineError(call, 400, message, message);
  }

  private resolvePath(call: RestCallName, apiPath: ApiPath): string {
    let text = apiPath.strings[0] ?? '';
    apiPath.ids.forEach((id, index) => {
      const segment = pathId(id);
      if (segment === null) {
        const isConversation = /^\/v\d\/conversations\//.test(text);
        throw this.refusal(call, isConversation && index === 0 ? INVALID_CONVERSATION_ID : INVALID_PARAMETERS);
      }
      text += segment + (apiPath.strings[index + 1] ?? '');
    });
    return text;
  }

  private async answer<T>(call: RestCallName, sentToken: string | null, send: () => Promise<HttpResponse>): Promise<T> {
    let response: HttpResponse;
    try {
      response = await send();
    } catch {
      throw engineError(call, 0, null, fallbackFor(call, 'network'));
    }
    let body: unknown;
    let parsed = true;
    try {
      body = await response.json();
    } catch {
      parsed = false;
    }
    // Only when the session that sent the call is still current: a 401 from an old token must not
    // sign out a user who has signed in again since.
    if (response.status === 401 && this.options.session().token === sentToken) this.options.onUnauthorized();
    // Too many calls: how long the server wants to be left alone, for the outbox's next try.
    const wait = response.status === 429 ? retryAfterMs(response.headers?.get('Retry-After')) : undefined;
    const waiting = wait !== undefined ? { retryAfterMs: wait } : {};
    if (parsed && isEnvelope(body)) {
      if (body.success) return body.data as T;
      const status = typeof body.status === 'number' && body.status > 0 ? body.status : response.status;
      const message = typeof body.message === 'string' ? body.message : null;
      throw { ...engineError(call, status, message, fallbackFor(call, 'answer')), ...waiting, ...refusalOf(body) };
    }
    const refused = response.status >= 400 && response.status < 500;
    const fallback = fallbackFor(call, refused ? 'answer' : 'network');
    throw { ...engineError(call, refused ? response.status : 0, null, fallback), ...waiting };
  }
}

type LooseEnvelope =
  | { success: true; data: unknown }
  | { success: false; status?: unknown; message?: unknown; code?: unknown; retry_after?: unknown };

const isRefusalCode = (value: unknown): value is RefusalCode => REFUSAL_CODES.includes(value as RefusalCode);

/**
 * A failure's stable code and its wait (docs/server.md "Refusal codes"), for the UI to word in the app's
 * language. A code this build does not know is left out: the UI then shows the server's message.
 */
function refusalOf(body: { code?: unknown; retry_after?: unknown }): Pick<EngineError, 'code' | 'retryAfterMs'> {
  const refusal: Pick<EngineError, 'code' | 'retryAfterMs'> = {};
  if (isRefusalCode(body.code)) refusal.code = body.code;
  const seconds = body.retry_after;
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) refusal.retryAfterMs = seconds * 1000;
  return refusal;
}

function isEnvelope(body: unknown): body is LooseEnvelope {
  return typeof body === 'object' && body !== null && typeof (body as { success?: unknown }).success === 'boolean';
}
