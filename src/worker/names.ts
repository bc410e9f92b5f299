import { type ApiNameOfKind, apiKind, apiNames } from '../engine/api';

/**
 * The EngineApi methods by kind, as runtime lists: what crosses a port is a name and plain arguments, and
 * a host only ever calls a method whose name is on one of these lists. They are read from the table in
 * src/engine/api.ts (`ENGINE_API`), where each query and command is declared once with its kind.
 */

export type QueryName = ApiNameOfKind<'query' | 'event'>;
export type CommandName = ApiNameOfKind<'command' | 'void'>;
export type EventQueryName = ApiNameOfKind<'event'>;
export type VoidCommandName = ApiNameOfKind<'void'>;

export const QUERY_NAMES: readonly QueryName[] = apiNames('query', 'event');

/**
 * Queries that emit events (each value happens once) rather than the current state: every value must
 * reach the tab, none may be merged with the next or replayed to a later subscriber (streamSender.ts,
 * bridge.ts).
 */
export const EVENT_QUERIES: readonly QueryName[] = apiNames('event');

export const isEventQuery = (name: QueryName): boolean => apiKind(name) === 'event';

/** Every command, the fire-and-forget ones (VOID_COMMANDS) included. */
export const COMMAND_NAMES: readonly CommandName[] = apiNames('command', 'void');

/** Commands that return nothing: the tab fires them and does not wait (errors are logged). */
export const VOID_COMMANDS: readonly VoidCommandName[] = apiNames('void');

export const isQueryName = (name: unknown): name is QueryName => {
  const kind = apiKind(name);
  return kind === 'query' || kind === 'event';
};
export const isCommandName = (name: unknown): name is CommandName => {
  const kind = apiKind(name);
  return kind === 'command' || kind === 'void';
};
