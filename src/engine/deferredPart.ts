import { defer, type Observable, switchMap } from 'rxjs';

/**
 * A stand-in for a part of the engine whose chunk is not loaded yet (signedInParts.ts): calling a method
 * loads the part, then calls it. A query (`isQuery(name)`: the engine passes the table's kinds, api.ts
 * `isApiQuery`, so no list of names is kept here) returns an Observable at once, which subscribes to the
 * part's once it is there; any other method returns a Promise of the part's answer. Only for methods called
 * from outside the engine's wiring: a caller that needs an answer synchronously reads the loaded part itself.
 */
export function deferredPart<T extends object>(load: () => Promise<T>, isQuery: (name: string) => boolean): T {
  const call = (part: T, name: string | symbol, args: unknown[]) =>
    (part[name as keyof T] as (...a: unknown[]) => unknown).apply(part, args);
  return new Proxy({} as T, {
    get: (_target, name) => {
      if (typeof name !== 'string' || name === 'then') return undefined;
      return (...args: unknown[]) =>
        isQuery(name)
          ? defer(load).pipe(switchMap((part) => call(part, name, args) as Observable<unknown>))
          : load().then((part) => call(part, name, args));
    },
  });
}
