import { BehaviorSubject, filter, firstValueFrom, type Observable, switchMap } from 'rxjs';
import type { EngineApi, NotifyPermission, TabState } from '../engine/api';
import type { CommandName, QueryName } from './names';

/**
 * An engine reached by the names of the API table (src/engine/api.ts) with plain arguments: what crosses a
 * port or a link. The follower's end of the leader link (LeaderLink) is one; so is CurrentEngine.
 */
export interface EngineByName {
  query(name: QueryName, args: readonly unknown[]): Observable<unknown>;
  invoke(name: CommandName, args: readonly unknown[]): Promise<unknown>;
}

/** The engine a worker's clients reach: the worker's own (it leads), or the leader's over the leader link. */
export type Reached = { own: EngineApi } | { leader: EngineByName };

type AnyMethod = (...args: readonly unknown[]) => unknown;

/** Calls the method `name` of this worker's own engine. Names are checked (names.ts) before they reach here. */
function callOwn(engine: EngineApi, name: QueryName | CommandName, args: readonly unknown[]): unknown {
  const method = (engine[name] as unknown as AnyMethod).bind(engine);
  return method(...args);
}

/**
 * This worker's own engine by name, straight: how a leader serves its followers. Their calls must not wait
 * for CurrentEngine (a leader that stops closes their tabs in this engine before it stops) nor be remembered
 * by it (a follower's tab states and notification permission are not this worker's).
 */
export function ownByName(engine: EngineApi): EngineByName {
  return {
    query: (name, args) => callOwn(engine, name, args) as Observable<unknown>,
    // async: a command that throws synchronously still becomes a rejected promise.
    invoke: async (name, args) => callOwn(engine, name, args),
  };
}

/**
 * The engine this worker's clients reach right now (one per worker, EngineHost's `backend`): none yet (the
 * engine is still starting, or the leader changes), the worker's own, or the leader's over the leader link.
 * Queries re-subscribe to the next engine when it changes, commands wait for one, and what tabs told the old
 * engine about themselves (TabState, notification permission) is told to the new one, so a leader change is
 * invisible to the tabs.
 */
export class CurrentEngine implements EngineByName {
  private readonly current$ = new BehaviorSubject<Reached | null>(null);
  private readonly tabStates = new Map<string, TabState>();
  private permission: NotifyPermission | null = null;

  get current(): Reached | null {
    return this.current$.value;
  }

  /** This worker runs the engine. */
  useOwn(engine: EngineApi): void {
    this.use({ own: engine });
  }

  /** This worker follows the leader, reached over `link`. */
  useLeader(link: EngineByName): void {
    if (this.current$.value !== null && 'leader' in this.current$.value && this.current$.value.leader === link) return;
    this.use({ leader: link });
  }

  /** No engine for now: calls wait for the next. */
  clear(): void {
    if (this.current$.value !== null) this.current$.next(null);
  }

  /**
   * The query on each engine as it comes; while there is none, the old one's stays. It never completes (the
   * engines never end), so a query that ends on one engine is asked again of the next.
   */
  query(name: QueryName, args: readonly unknown[]): Observable<unknown> {
    return this.current$.pipe(
      filter((reached): reached is Reached => reached !== null),
      switchMap((reached) => ('own' in reached ? (callOwn(reached.own, name, args) as Observable<unknown>) : reached.leader.query(name, args))),
    );
  }

  async invoke(name: CommandName, args: readonly unknown[]): Promise<unknown> {
    // What a tab says about itself is told to each engine as it comes (see `use`): no need to wait for one.
    if (this.remember(name, args) && this.current$.value === null) return undefined;
    const reached = await firstValueFrom(this.current$.pipe(filter((r): r is Reached => r !== null)));
    return send(reached, name, args);
  }

  private use(reached: Reached): void {
    const replay = (name: CommandName, args: unknown[]) => void send(reached, name, args).catch(() => undefined);
    for (const [tabId, state] of this.tabStates) replay('setTabState', [tabId, state]);
    if (this.permission !== null) replay('setNotificationPermission', [this.permission]);
    this.current$.next(reached);
  }

  /** Keeps what tabs say about themselves, to tell the next engine; true for such a command. */
  private remember(name: CommandName, args: readonly unknown[]): boolean {
    const [first, second] = args;
    if (name === 'setTabState' && typeof first === 'string') this.tabStates.set(first, second as TabState);
    else if (name === 'closeTab' && typeof first === 'string') this.tabStates.delete(first);
    else if (name === 'setNotificationPermission') this.permission = first as NotifyPermission;
    else return false;
    return true;
  }
}

/** A command to the engine reached; async, so a command that throws synchronously still rejects. */
async function send(reached: Reached, name: CommandName, args: readonly unknown[]): Promise<unknown> {
  return 'own' in reached ? callOwn(reached.own, name, args) : reached.leader.invoke(name, args);
}
