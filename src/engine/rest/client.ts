import { authCalls } from './authCalls';
import { channelPostCalls } from './channelPostCalls';
import { communityCalls } from './communityCalls';
import { conversationCalls } from './conversationCalls';
import { RestCore, type RestClientOptions } from './core';
import { messageCalls } from './messageCalls';

/**
 * One typed method per call of spec §7. Every method resolves with the envelope's `data` (the answer
 * types of src/protocol/api.ts) or rejects with an EngineError (src/engine/errors.ts), never anything else.
 */
export type RestClient = ReturnType<typeof authCalls> &
  ReturnType<typeof conversationCalls> &
  ReturnType<typeof messageCalls> &
  ReturnType<typeof communityCalls> &
  ReturnType<typeof channelPostCalls>;

export function createRestClient(options: RestClientOptions): RestClient {
  const core = new RestCore(options);
  return {
    ...authCalls(core),
    ...conversationCalls(core),
    ...messageCalls(core),
    ...communityCalls(core),
    ...channelPostCalls(core),
  };
}
