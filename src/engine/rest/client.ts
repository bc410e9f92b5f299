import { authCalls } from './authCalls';
import { RestCore, type RestClientOptions } from './core';
import { type SignedInCalls, signedInCalls } from './signedInCalls';

/**
 * One typed method per call of spec §7. Every method resolves with the envelope's `data` (the answer
 * types of src/protocol/api.ts) or rejects with an EngineError (src/engine/errors.ts), never anything else.
 */
export type RestClient = ReturnType<typeof authCalls> & SignedInCalls;

export function createRestClient(options: RestClientOptions): RestClient {
  const core = new RestCore(options);
  return { ...authCalls(core), ...signedInCalls(core) };
}
