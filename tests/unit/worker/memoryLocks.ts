import type { LockOptions, Locks } from '../../../src/worker/locks';

interface Holder {
  context: number;
  mode: 'exclusive' | 'shared';
  release: () => void;
}

interface Waiter {
  context: number;
  mode: 'exclusive' | 'shared';
  grant: () => void;
  cancel: () => void;
}

/**
 * The Web Locks API in memory, for unit tests of the worker shell: FIFO per name, shared and exclusive
 * modes, abort signals, and contexts that can die (`kill`), which frees what they hold at once and drops
 * what they wait for, as the browser does when a worker or tab ends.
 */
export class MemoryLockManager {
  private readonly holders = new Map<string, Holder[]>();
  private readonly queues = new Map<string, Waiter[]>();
  private readonly dead = new Set<number>();
  private nextContext = 1;

  /** The Locks of one context (a worker or a tab). */
  context(): Locks & { kill(): void; readonly id: number } {
    const id = this.nextContext++;
    return {
      id,
      request: (name, options, callback) => this.request(id, name, options, callback),
      kill: () => this.kill(id),
    };
  }

  /** Names held right now, with how many hold each. */
  held(name: string): number {
    return this.holders.get(name)?.length ?? 0;
  }

  private request(context: number, name: string, options: LockOptions, callback: () => Promise<void> | void): Promise<void> {
    if (this.dead.has(context)) return new Promise<void>(() => undefined);
    const mode = options.mode ?? 'exclusive';
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new DOMException('aborted', 'AbortError'));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        context,
        mode,
        cancel: () => reject(new DOMException('aborted', 'AbortError')),
        grant: () => {
          let released = false;
          const holder: Holder = {
            context,
            mode,
            release: () => {
              if (released) return;
              released = true;
              const list = (this.holders.get(name) ?? []).filter((h) => h !== holder);
              this.holders.set(name, list);
              this.process(name);
            },
          };
          this.holders.set(name, [...(this.holders.get(name) ?? []), holder]);
          Promise.resolve()
            .then(callback)
            .then(
              () => {
                holder.release();
                resolve();
              },
              (error: unknown) => {
                holder.release();
                reject(error);
              },
            );
        },
      };
      signal?.addEventListener('abort', () => {
        const queue = this.queues.get(name) ?? [];
        if (!queue.includes(waiter)) return;
        this.queues.set(
          name,
          queue.filter((w) => w !== waiter),
        );
        waiter.cancel();
        this.process(name);
      });
      this.queues.set(name, [...(this.queues.get(name) ?? []), waiter]);
      this.process(name);
    });
  }

  private process(name: string): void {
    const queue = this.queues.get(name) ?? [];
    while (queue.length > 0) {
      const next = queue[0]!;
      const holding = this.holders.get(name) ?? [];
      const free = next.mode === 'shared' ? holding.every((h) => h.mode === 'shared') : holding.length === 0;
      if (!free) break;
      queue.shift();
      next.grant();
    }
    this.queues.set(name, queue);
  }

  private kill(context: number): void {
    this.dead.add(context);
    for (const [name, queue] of this.queues) {
      this.queues.set(
        name,
        queue.filter((w) => w.context !== context),
      );
    }
    for (const list of this.holders.values()) for (const holder of list.filter((h) => h.context === context)) holder.release();
  }
}
