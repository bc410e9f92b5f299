/**
 * The one error type of the engine (issue 3: "errors as a typed EngineError"). Plain data, not an Error
 * subclass: it crosses Comlink and postMessage, where a structured clone keeps a plain object whole but
 * turns an Error subclass into a bare Error and drops its extra fields.
 */
export interface EngineError {
  name: 'EngineError';
  /** The HTTP status of the refusal; 0 when there was no usable answer (network down, not JSON). */
  status: number;
  /** What the user is shown: the server's message, or `fallback` when the server gave none. */
  message: string;
  /** The spec §8 text of the call that failed, shown when the server's message is missing. */
  fallback: string;
  /** Which call failed, e.g. 'sendMessage' (a key of src/engine/rest/fallbacks.ts for REST calls). */
  call: string;
  /** How long the server asked to be left alone before the next try (429 with `Retry-After`), in ms. */
  retryAfterMs?: number;
}

/** Builds an EngineError; an empty or missing message becomes the fallback. */
export function engineError(
  call: string,
  status: number,
  message: string | null | undefined,
  fallback: string,
): EngineError {
  const text = typeof message === 'string' && message.trim() !== '' ? message : fallback;
  return { name: 'EngineError', status, message: text, fallback, call };
}

export function isEngineError(value: unknown): value is EngineError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v.name === 'EngineError' &&
    typeof v.status === 'number' &&
    typeof v.message === 'string' &&
    typeof v.fallback === 'string' &&
    typeof v.call === 'string'
  );
}

/** True when the request never got a usable answer, so retrying it later may succeed. */
export function isNetworkError(error: EngineError): boolean {
  return error.status === 0;
}
