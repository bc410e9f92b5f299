import type { Observable } from 'rxjs';
import type { EngineApi } from '../engine/api';
import type { CommandName, QueryName } from './names';

/**
 * An engine as a host serves it: queries and commands by name with plain arguments. The real engine
 * (`engineBackend`), an engine in another tab reached over a BroadcastChannel (RemoteBackend) and one
 * that follows whichever of those is current (SwitchingBackend) all look like this.
 */
export interface EngineBackend {
  query(name: QueryName, args: readonly unknown[]): Observable<unknown>;
  invoke(name: CommandName, args: readonly unknown[]): Promise<unknown>;
}

type AnyMethod = (...args: readonly unknown[]) => unknown;

/** The engine of this worker as a backend. Names are checked by the hosts before they reach here. */
export function engineBackend(engine: EngineApi): EngineBackend {
  const method = (name: QueryName | CommandName): AnyMethod => {
    const fn = engine[name] as unknown as AnyMethod;
    return fn.bind(engine);
  };
  return {
    query: (name, args) => method(name)(...args) as Observable<unknown>,
    // async: a command that throws synchronously still becomes a rejected promise.
    invoke: async (name, args) => method(name)(...args),
  };
}
