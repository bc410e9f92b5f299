import type { SessionsAnswer, SessionsEndedAnswer } from '../../protocol/api';
import { path, type RestCore } from './core';
import type { SessionCalls } from '../contract/restCalls';

/** The user's sessions (docs/server.md "Sessions"), a signed-in chunk's calls like the chats'. */
export function sessionCalls(core: RestCore): SessionCalls {
  return {
    getSessions(): Promise<SessionsAnswer> {
      return core.send({ call: 'getSessions', method: 'GET', path: path`/v1/me/sessions` });
    },

    endSession(id: string): Promise<SessionsEndedAnswer> {
      return core.send({ call: 'endSession', method: 'DELETE', path: path`/v1/me/sessions/${id}` });
    },

    endOtherSessions(): Promise<SessionsEndedAnswer> {
      return core.send({ call: 'endOtherSessions', method: 'DELETE', path: path`/v1/me/sessions/others` });
    },
  };
}
