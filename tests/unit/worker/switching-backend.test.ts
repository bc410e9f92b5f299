import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { EngineBackend } from '../../../src/worker/backend';
import { SwitchingBackend } from '../../../src/worker/switchingBackend';

/** A stand-in engine whose queries all follow `source`. */
function engine() {
  const source = new Subject<string>();
  const backend: EngineBackend = { query: () => source, invoke: async (name) => name };
  return { source, backend };
}

describe('SwitchingBackend queries', () => {
  it('wait for an engine, keep the old one’s while there is none, and move to each new one', () => {
    const switching = new SwitchingBackend();
    const seen: string[] = [];
    let ended = false;
    const subscription = switching.query('session', []).subscribe({ next: (v) => seen.push(v as string), complete: () => (ended = true) });
    const a = engine();
    const b = engine();
    switching.use(a.backend);
    a.source.next('a1');
    // The engine stopped and the next is not there yet: the old one's query stays.
    switching.use(null);
    expect(a.source.observed).toBe(true);
    a.source.next('a2');
    switching.use(b.backend);
    expect(a.source.observed).toBe(false);
    b.source.next('b1');
    // A query that ends on one engine does not end the tab's: the next engine answers it again.
    b.source.complete();
    expect(ended).toBe(false);
    const c = engine();
    switching.use(c.backend);
    c.source.next('c1');
    expect(seen).toEqual(['a1', 'a2', 'b1', 'c1']);
    subscription.unsubscribe();
    expect(c.source.observed).toBe(false);
  });

  it('pass an engine’s error on, and commands wait for an engine', async () => {
    const switching = new SwitchingBackend();
    const a = engine();
    let failed: unknown = null;
    switching.query('session', []).subscribe({ error: (error: unknown) => (failed = error) });
    const answer = switching.invoke('refreshConversations', []);
    switching.use(a.backend);
    a.source.error('gone');
    expect(failed).toBe('gone');
    expect(await answer).toBe('refreshConversations');
  });
});
