import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { CurrentEngine, type EngineByName } from '../../../src/worker/currentEngine';

/** A stand-in engine whose queries all follow `source`. */
function engine() {
  const source = new Subject<string>();
  const backend: EngineByName = { query: () => source, invoke: async (name) => name };
  return { source, backend };
}

describe('CurrentEngine queries', () => {
  it('wait for an engine, keep the old one’s while there is none, and move to each new one', () => {
    const switching = new CurrentEngine();
    const seen: string[] = [];
    let ended = false;
    const subscription = switching.query('session', []).subscribe({ next: (v) => seen.push(v as string), complete: () => (ended = true) });
    const a = engine();
    const b = engine();
    switching.useLeader(a.backend);
    a.source.next('a1');
    // The engine stopped and the next is not there yet: the old one's query stays.
    switching.clear();
    expect(a.source.observed).toBe(true);
    a.source.next('a2');
    switching.useLeader(b.backend);
    expect(a.source.observed).toBe(false);
    b.source.next('b1');
    // A query that ends on one engine does not end the tab's: the next engine answers it again.
    b.source.complete();
    expect(ended).toBe(false);
    const c = engine();
    switching.useLeader(c.backend);
    c.source.next('c1');
    expect(seen).toEqual(['a1', 'a2', 'b1', 'c1']);
    subscription.unsubscribe();
    expect(c.source.observed).toBe(false);
  });

  it('pass an engine’s error on, and commands wait for an engine', async () => {
    const switching = new CurrentEngine();
    const a = engine();
    let failed: unknown = null;
    switching.query('session', []).subscribe({ error: (error: unknown) => (failed = error) });
    const answer = switching.invoke('refreshConversations', []);
    switching.useLeader(a.backend);
    a.source.error('gone');
    expect(failed).toBe('gone');
    expect(await answer).toBe('refreshConversations');
  });
});
