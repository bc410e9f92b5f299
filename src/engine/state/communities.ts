import type { Channel, Community, Participant } from '../../protocol/entities';
import type { EngineError } from '../contract/types';
import { sameJson, setEntries, setEntry } from './records';
import type { CommunitySearch, EngineState } from './types';

/*
 * The communities part of the state (spec §3): communities, the explore search, channels and the authors of
 * posts and comments. Each update returns the same object for what did not change, so observers of untouched
 * views are not woken and the writer skips the communities record.
 */

/** Puts the entities that differ from the stored ones; the same record when none does. */
export function putEntities<T>(record: Readonly<Record<number, T>>, items: readonly T[], id: (item: T) => number) {
  return setEntries(
    record,
    items.filter((item) => !sameJson(record[id(item)], item)).map((item) => [id(item), item] as const),
  );
}

export const sameIds = (a: readonly number[] | null | undefined, b: readonly number[]) =>
  !!a && a.length === b.length && a.every((id, i) => id === b[i]);

export function communitiesLoaded(state: EngineState, list: readonly Community[]): EngineState {
  const communities = putEntities(state.communities, list, (c) => c.id);
  const ids = list.map((c) => c.id);
  const communityIds = sameIds(state.communityIds, ids) ? state.communityIds : ids;
  if (communities === state.communities && communityIds === state.communityIds) return state;
  return { ...state, communities, communityIds };
}

/** One community as the server described it (details, join, leave). */
export function communityStored(state: EngineState, community: Community): EngineState {
  const communities = putEntities(state.communities, [community], (c) => c.id);
  return communities === state.communities ? state : { ...state, communities };
}

export function searchStarted(state: EngineState, query: string): EngineState {
  const ids = state.communitySearch?.query === query ? state.communitySearch.ids : [];
  return { ...state, communitySearch: { query, ids, status: 'loading', error: null } };
}

/** The answer for `query` (results, or why it failed); ignored when a newer search or a clear replaced it. */
export function searchAnswered(
  state: EngineState,
  query: string,
  answer: { results: readonly Community[] } | { error: EngineError | null },
): EngineState {
  if (state.communitySearch?.query !== query) return state;
  const results = 'results' in answer ? answer.results : null;
  const communitySearch: CommunitySearch = results
    ? { query, ids: results.map((c) => c.id), status: 'loaded', error: null }
    : { query, ids: state.communitySearch.ids, status: 'error', error: 'error' in answer ? answer.error : null };
  const communities = results ? putEntities(state.communities, results, (c) => c.id) : state.communities;
  return { ...state, communities, communitySearch };
}

export function searchCleared(state: EngineState): EngineState {
  return state.communitySearch === null ? state : { ...state, communitySearch: null };
}

export function channelsLoaded(state: EngineState, communityId: number, list: readonly Channel[]): EngineState {
  const channels = putEntities(state.channels, list, (c) => c.id);
  const ids = list.map((c) => c.id);
  const channelIds = sameIds(state.channelIds[communityId], ids) ? state.channelIds : setEntry(state.channelIds, communityId, ids);
  if (channels === state.channels && channelIds === state.channelIds) return state;
  return { ...state, channels, channelIds };
}

/** One channel as the server described it (details, join, leave). */
export function channelStored(state: EngineState, channel: Channel): EngineState {
  const channels = putEntities(state.channels, [channel], (c) => c.id);
  return channels === state.channels ? state : { ...state, channels };
}

export function participantsSeen(state: EngineState, people: readonly Participant[]): EngineState {
  const participants = putEntities(state.participants, people, (p) => p.user_id);
  return participants === state.participants ? state : { ...state, participants };
}
