import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { afterLoad, latestOfBoth } from '../../../src/engine/streams';

describe('afterLoad (defer + switchMap over one promise)', () => {
  it('loads on each subscription, then follows what the value gives, to its end', async () => {
    let loads = 0;
    const source = new Subject<string>();
    const seen: string[] = [];
    let completed = false;
    afterLoad(
      () => Promise.resolve(++loads),
      () => source,
    ).subscribe({ next: (v) => seen.push(v), complete: () => (completed = true) });
    expect(loads).toBe(1);
    await expect.poll(() => source.observed).toBe(true);
    source.next('a');
    source.complete();
    expect(seen).toEqual(['a']);
    expect(completed).toBe(true);
  });

  it('ends with the load’s error, and subscribes to nothing once left before the load', async () => {
    const error = new Error('chunk gone');
    const failed = await new Promise<unknown>((resolve) => {
      afterLoad(() => Promise.reject(error), () => new Subject<never>()).subscribe({ error: resolve });
    });
    expect(failed).toBe(error);
    const source = new Subject<number>();
    let resolveLoad: (value: number) => void = () => undefined;
    const subscription = afterLoad(
      () => new Promise<number>((resolve) => (resolveLoad = resolve)),
      () => source,
    ).subscribe();
    subscription.unsubscribe();
    resolveLoad(1);
    await Promise.resolve();
    expect(source.observed).toBe(false);
  });
});

describe('latestOfBoth (combineLatest of two)', () => {
  it('emits both latest values once each has one, and every change after', () => {
    const a = new BehaviorSubject(1);
    const b = new Subject<string>();
    const seen: [number, string][] = [];
    const subscription = latestOfBoth(a, b).subscribe((pair) => seen.push(pair));
    a.next(2);
    b.next('x');
    a.next(3);
    b.next('y');
    expect(seen).toEqual([
      [2, 'x'],
      [3, 'x'],
      [3, 'y'],
    ]);
    subscription.unsubscribe();
    expect(a.observed || b.observed).toBe(false);
  });

  it('ends when a side ends without a value, or when both have ended', () => {
    let ended = false;
    const b = new Subject<number>();
    latestOfBoth(new Subject<number>(), b).subscribe({ complete: () => (ended = true) });
    b.complete();
    expect(ended).toBe(true);
    ended = false;
    const x = new BehaviorSubject(1);
    const y = new BehaviorSubject(2);
    latestOfBoth(x, y).subscribe({ complete: () => (ended = true) });
    x.complete();
    expect(ended).toBe(false);
    y.complete();
    expect(ended).toBe(true);
  });
});

