import type { EventAction, EventFrame, EventPayloads } from '../../protocol/socket';
import { socketHandlers } from './socketHandlers';
import type { EngineEffect, EngineState, ReduceContext, ReduceResult } from './types';

type FrameOf<A extends EventAction> = { action: A; id?: number; data: EventPayloads[A] };

function applyFrame<A extends EventAction>(
  state: EngineState,
  frame: FrameOf<A>,
  ctx: ReduceContext,
  effects: EngineEffect[],
): EngineState {
  const handler = socketHandlers[frame.action];
  // A frame whose action this client does not know (a newer server) changes nothing.
  return handler ? handler(state, frame.data, ctx, effects) : state;
}

/**
 * A websocket event frame. Events that change state carry a per-user id that grows by one
 * (docs/server.md): an id we already applied is a duplicate (a replay overlapping live frames) and is
 * ignored, so each event is applied exactly once; an id that skips ahead of a known position means events
 * were missed, so the frame is applied and a `sync` is asked for. The position is known once a
 * `socket_loaded` gave an epoch, also while it is still 0. Frames without an id (presence) are always applied.
 */
export function reduceFrame(state: EngineState, frame: EventFrame, ctx: ReduceContext): ReduceResult {
  const id = frame.id;
  if (id !== undefined && id <= state.lastEventId) return { state, effects: [] };
  const effects: EngineEffect[] = [];
  const next = applyFrame(state, frame as FrameOf<EventAction>, ctx, effects);
  return { state: id === undefined ? next : advance(state, next, id, effects), effects };
}

/**
 * An event this client cannot read (an action of a newer server): nothing changes but the position, so it
 * is neither replayed nor taken for a gap on every reconnect.
 */
export function skipFrame(state: EngineState, id: number): ReduceResult {
  if (id <= state.lastEventId) return { state, effects: [] };
  const effects: EngineEffect[] = [];
  return { state: advance(state, state, id, effects), effects };
}

/** `next` at event `id`; an id past the one after a known position asks for a sync. */
function advance(state: EngineState, next: EngineState, id: number, effects: EngineEffect[]): EngineState {
  const positionKnown = state.epoch !== '' || state.lastEventId > 0;
  if (positionKnown && id > state.lastEventId + 1) effects.push({ type: 'sync' });
  return { ...next, lastEventId: id };
}
