import { describe, expect, it } from 'vitest';
import { Latest } from '../../../src/worker/latest';

describe('Latest (the tab link as an Observable without RxJS Subject)', () => {
  it('gives a subscriber the current value at once, then each new one, until it leaves', () => {
    const latest = new Latest<number | null>(null);
    const seen: (number | null)[] = [];
    const subscription = latest.changes.subscribe((value) => seen.push(value));
    latest.set(1);
    latest.set(2);
    subscription.unsubscribe();
    latest.set(3);
    expect(seen).toEqual([null, 1, 2]);
    expect(latest.value).toBe(3);
  });

  it('resolves `when` with the current value if it passes, else the next that does', async () => {
    const latest = new Latest<number | null>(null);
    const isNumber = (value: number | null): value is number => value !== null;
    const waiting = latest.when(isNumber);
    latest.set(null);
    latest.set(4);
    latest.set(5);
    expect(await waiting).toBe(4);
    expect(await latest.when(isNumber)).toBe(5);
  });
});
