import { PROTOCOL_VERSION } from '../../protocol/constants';

/** What a connect needs, read afresh at every (re)connect so the newest token, id and epoch are sent. */
export interface SocketParams {
  /** `ws://host:port` or `wss://host` (a trailing slash is tolerated), possibly a debug-screen override. */
  wsBase: string;
  /** No token (signed out): the connection stays closed. */
  token: string | null;
  /** The last event id the engine has applied and persisted; 0 on a first connect. */
  lastEventId: number;
  /** The server database's identity from the last `socket_loaded`; '' or null when not known yet. */
  epoch: string | null;
}

/**
 * The id a connect reports: one that is not a positive whole number is sent as 0 (a fresh client) rather
 * than refused by the server with 400 on every reconnect.
 */
export const sentEventId = (id: number): number => (Number.isSafeInteger(id) && id > 0 ? id : 0);

/**
 * design.md §4 and docs/server.md "Websocket":
 * `/ws?token=T&last_message_id=N&protocol=7&deviceType=webclient[&epoch=E]`, epoch only when known.
 */
export function buildSocketUrl(params: SocketParams & { token: string }): string {
  const base = params.wsBase.replace(/\/+$/, '');
  const lastId = sentEventId(params.lastEventId);
  const query = [
    `token=${encodeURIComponent(params.token)}`,
    `last_message_id=${lastId}`,
    `protocol=${PROTOCOL_VERSION}`,
    'deviceType=webclient',
  ];
  if (params.epoch) query.push(`epoch=${encodeURIComponent(params.epoch)}`);
  return `${base}/ws?${query.join('&')}`;
}
