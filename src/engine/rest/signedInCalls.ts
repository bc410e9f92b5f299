import { channelPostCalls } from './channelPostCalls';
import { sessionCalls } from './sessionCalls';
import { communityCalls } from './communityCalls';
import { conversationCalls } from './conversationCalls';
import type { SignedInCalls } from '../contract/restCalls';
import type { RestCore } from './core';
import { messageCalls } from './messageCalls';

/**
 * The calls of spec §7 only a signed-in user makes: conversations, messages, communities, channel posts.
 * The engine adds them to its client with its signed-in parts (issue 11: not in the worker /login starts).
 */
export function signedInCalls(core: RestCore): SignedInCalls {
  return {
    ...conversationCalls(core),
    ...messageCalls(core),
    ...communityCalls(core),
    ...channelPostCalls(core),
    ...sessionCalls(core),
  };
}
