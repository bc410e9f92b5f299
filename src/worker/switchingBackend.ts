import { BehaviorSubject, filter, firstValueFrom, type Observable, switchMap } from 'rxjs';
import type { NotifyPermission, TabState } from '../engine/api';
import type { EngineBackend } from './backend';
import type { CommandName, QueryName } from './names';

/**
 * A backend that follows whichever engine is current: none yet (the engine is still starting), the local
 * engine, or the leader's engine in another tab. Queries re-subscribe to the new engine when it changes,
 * commands wait for one, and what tabs told the old engine about themselves (TabState, notification
 * permission) is told to the new one, so a leader change is invisible to the tabs.
 */
export class SwitchingBackend implements EngineBackend {
  private readonly current$ = new BehaviorSubject<EngineBackend | null>(null);
  private readonly tabStates = new Map<string, TabState>();
  private permission: NotifyPermission | null = null;

  get current(): EngineBackend | null {
    return this.current$.value;
  }

  use(backend: EngineBackend | null): void {
    if (backend === this.current$.value) return;
    if (backend) {
      const replay = (name: CommandName, args: unknown[]) => void backend.invoke(name, args).catch(() => undefined);
      for (const [tabId, state] of this.tabStates) replay('setTabState', [tabId, state]);
      if (this.permission !== null) replay('setNotificationPermission', [this.permission]);
    }
    this.current$.next(backend);
  }

  /**
   * The query on each engine as it comes; while there is none, the old one's stays. It never completes (the
   * engines never end), so a query that ends on one engine is asked again of the next.
   */
  query(name: QueryName, args: readonly unknown[]): Observable<unknown> {
    return this.current$.pipe(
      filter((backend): backend is EngineBackend => backend !== null),
      switchMap((backend) => backend.query(name, args)),
    );
  }

  async invoke(name: CommandName, args: readonly unknown[]): Promise<unknown> {
    // What a tab says about itself is told to each engine as it comes (see `use`): no need to wait for one.
    if (this.remember(name, args) && this.current$.value === null) return undefined;
    const backend = await firstValueFrom(this.current$.pipe(filter((b): b is EngineBackend => b !== null)));
    return backend.invoke(name, args);
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
