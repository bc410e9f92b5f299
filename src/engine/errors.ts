import type { EngineError } from './contract/types';

/*
 * The engine's error builders. The type and its guard are the contract's (contract/types.ts); they are
 * re-exported here because every part of the engine that refuses something imports this file.
 */
export type { EngineError } from './contract/types';
export { isEngineError } from './contract/types';

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

/** True when the request never got a usable answer, so retrying it later may succeed. */
export function isNetworkError(error: EngineError): boolean {
  return error.status === 0;
}
