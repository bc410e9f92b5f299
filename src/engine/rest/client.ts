import { authCalls } from './authCalls';
import { RestCore, type RestClientOptions } from './core';
import type { RestCalls } from '../contract/restCalls';
import { signedInCalls } from './signedInCalls';

/** One typed method per call of spec §7: the contract's catalogue (contract/restCalls.ts), as the engine holds it. */
export type RestClient = RestCalls;

export function createRestClient(options: RestClientOptions): RestClient {
  const core = new RestCore(options);
  return { ...authCalls(core), ...signedInCalls(core) };
}
