import { DEFAULT_PING_INTERVAL_MS } from '../../protocol/constants';
import type { EventAction, EventFrame } from '../../protocol/socket';

/** A server frame the connection understood. Pings stay inside the connection; the rest go to the engine. */
export type ParsedFrame =
  | { kind: 'ping'; intervalMs: number }
  | { kind: 'loaded'; needSync: boolean; lastEventId: number; epoch: string }
  | { kind: 'event'; frame: EventFrame }
  /** An event with an id that this client cannot read (say a newer server's action): only its id counts. */
  | { kind: 'skipped'; id: number; reason: string };

export type ParseResult = { ok: true; frame: ParsedFrame } | { ok: false; reason: string };

/** Every event action of src/protocol/socket.ts; a Record so a new action there fails to compile here. */
const EVENT_ACTIONS: Record<EventAction, true> = {
  conversation_message: true,
  conversation_edit: true,
  conversation_add_user: true,
  deleted_conversation: true,
  conversation_removed_user: true,
  reactions_changed: true,
  conversation_message_delete: true,
  conversation_message_edited: true,
  conversation_message_update: true,
  channel_post_comment_added: true,
  inbox_channel_added: true,
  message_dlr2: true,
  user_presence: true,
  self_dlr_sync: true,
};

const isEventAction = (action: string): action is EventAction => Object.hasOwn(EVENT_ACTIONS, action);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isEventId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * Turns one websocket message into a frame, or says why not (spec §4: parse errors are only logged).
 * It checks the envelope `{action, data?, id?}` and the fields the connection itself acts on; an event's
 * payload is typed by src/protocol/socket.ts and is the reducer's to read.
 */
export function parseFrame(data: unknown): ParseResult {
  if (typeof data !== 'string') return { ok: false, reason: 'not a text frame' };
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (!isRecord(json)) return { ok: false, reason: 'not an object' };
  const { action } = json;
  if (typeof action !== 'string' || action === '') return { ok: false, reason: 'no action' };

  if (action === 'ping') {
    const { interval } = json;
    // The interval is in seconds; a missing or nonsensical one means the spec's default of 10 s.
    const valid = typeof interval === 'number' && Number.isFinite(interval) && interval > 0;
    return { ok: true, frame: { kind: 'ping', intervalMs: valid ? interval * 1000 : DEFAULT_PING_INTERVAL_MS } };
  }

  if (action === 'socket_loaded') {
    const loaded = json.data;
    if (!isRecord(loaded)) return { ok: false, reason: 'socket_loaded without data' };
    const { need_sync: needSync, last_message_id: lastId, epoch } = loaded;
    if (typeof needSync !== 'boolean') return { ok: false, reason: 'socket_loaded without need_sync' };
    if (!Number.isSafeInteger(lastId) || (lastId as number) < 0) {
      return { ok: false, reason: 'socket_loaded without last_message_id' };
    }
    // A server without epochs (older than docs/server.md) still works: '' is "not known".
    const epochText = typeof epoch === 'string' ? epoch : '';
    return { ok: true, frame: { kind: 'loaded', needSync, lastEventId: lastId as number, epoch: epochText } };
  }

  if (json.id !== undefined && !isEventId(json.id)) return { ok: false, reason: `${action.slice(0, 64)} with a bad id` };
  const unreadable = !isEventAction(action) ? `unknown action ${action.slice(0, 64)}` : !isRecord(json.data) ? `${action} without data` : null;
  if (unreadable !== null) {
    // The event still happened: its id keeps the position, or every reconnect would replay it as a gap.
    return isEventId(json.id) ? { ok: true, frame: { kind: 'skipped', id: json.id, reason: unreadable } } : { ok: false, reason: unreadable };
  }
  const frame = { action, data: json.data, ...(json.id !== undefined ? { id: json.id } : {}) } as EventFrame;
  return { ok: true, frame: { kind: 'event', frame } };
}
