import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { deferredPart } from '../../../src/engine/deferredPart';

/** A part with one query and one command, as the engine's signed-in parts have. */
interface Part {
  items(prefix: string): Subject<string>;
  rename(name: string): Promise<string>;
}

const isQuery = (name: string) => name === 'items';

describe('deferredPart (a signed-in part not loaded yet)', () => {
  it('loads on each subscription to a query, then follows what the part gives, to its end', async () => {
    let loads = 0;
    const source = new Subject<string>();
    const asked: string[] = [];
    const part = deferredPart<Part>(async () => {
      loads++;
      return {
        items: (prefix) => (asked.push(prefix), source),
        rename: async (name) => `renamed ${name}`,
      };
    }, isQuery);
    const seen: string[] = [];
    let completed = false;
    const items = part.items('a');
    // The query is an Observable at once; nothing loads before someone subscribes.
    expect(loads).toBe(0);
    items.subscribe({ next: (v) => seen.push(v), complete: () => (completed = true) });
    expect(loads).toBe(1);
    await expect.poll(() => source.observed).toBe(true);
    expect(asked).toEqual(['a']);
    source.next('x');
    source.complete();
    expect(seen).toEqual(['x']);
    expect(completed).toBe(true);
    items.subscribe().unsubscribe();
    expect(loads).toBe(2);
    // A command is a Promise of the part's answer.
    expect(await part.rename('b')).toBe('renamed b');
  });

  it('ends a query with the load’s error, and subscribes to nothing once left before the load', async () => {
    const error = new Error('chunk gone');
    const broken = deferredPart<Part>(() => Promise.reject(error), isQuery);
    const failed = await new Promise<unknown>((resolve) => {
      broken.items('a').subscribe({ error: resolve });
    });
    expect(failed).toBe(error);
    await expect(broken.rename('b')).rejects.toBe(error);

    const source = new Subject<string>();
    let resolveLoad: (part: Part) => void = () => undefined;
    const slow = deferredPart<Part>(() => new Promise<Part>((resolve) => (resolveLoad = resolve)), isQuery);
    slow.items('a').subscribe().unsubscribe();
    let asked = 0;
    resolveLoad({ items: () => (asked++, source), rename: async (name) => name });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked).toBe(0);
    expect(source.observed).toBe(false);
  });

  it('is not a thenable, so awaiting it does not call the part', async () => {
    let loads = 0;
    const part = deferredPart<Part>(async () => (loads++, { items: () => new Subject(), rename: async (n) => n }), isQuery);
    expect(await Promise.resolve(part)).toBe(part);
    expect(loads).toBe(0);
  });
});
