/**
 * The part of the Web Locks API the worker shell uses (design.md §5: adapters behind small interfaces).
 * In the browser it is `navigator.locks`; unit tests pass an in-memory one. A lock is released when its
 * callback's promise settles, or at once when the context that holds it dies, which is what makes locks
 * the way to learn that a worker or a tab is gone without waiting for a timeout.
 */
export interface LockOptions {
  mode?: 'exclusive' | 'shared';
  signal?: AbortSignal;
}

export interface Locks {
  /** Runs `callback` once the lock is granted and holds it until the callback's promise settles. */
  request(name: string, options: LockOptions, callback: () => Promise<void> | void): Promise<void>;
}

/** This context's Web Locks, or null where the API is missing (old browsers, insecure contexts). */
export function webLocks(): Locks | null {
  const manager = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!manager) return null;
  return {
    request: async (name, options, callback) => {
      await manager.request(name, options, async () => {
        await callback();
      });
    },
  };
}

/** Holds `name` until this context ends; resolves once it is held. */
export function holdForLife(locks: Locks, name: string): Promise<void> {
  return new Promise<void>((held) => {
    locks
      .request(name, {}, () => {
        held();
        return new Promise<never>(() => undefined);
      })
      .catch(() => undefined);
  });
}

/**
 * Calls `onReleased` when the holder of `name` lets go of it or dies, unless `signal` aborts first. The
 * wait is a shared request, so any number of waiters are woken together, and it lets go at once.
 * Only call it once the lock is known to be held, or it is granted straight away.
 */
export function whenReleased(locks: Locks, name: string, signal: AbortSignal, onReleased: () => void): void {
  locks
    .request(name, { mode: 'shared', signal }, () => {
      if (!signal.aborted) onReleased();
    })
    .catch(() => undefined);
}
