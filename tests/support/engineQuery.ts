import type { Page } from 'playwright';
import type { Observable } from 'rxjs';
import type { EngineApi } from '../../src/engine/api';
import type { QueryName } from '../../src/worker/names';

type Emitted<O> = O extends Observable<infer T> ? T : never;
export type QueryValue<K extends QueryName> = Emitted<ReturnType<EngineApi[K]>>;

/**
 * The value a query emits first in this tab, through the stream bridge (subscribe, first value,
 * unsubscribe). Engine queries are state streams, so the first value is the current one.
 */
export async function current<K extends QueryName>(
  page: Page,
  query: K,
  ...args: Parameters<EngineApi[K]>
): Promise<QueryValue<K>> {
  const value = await page.evaluate(
    ([name, list]) =>
      new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`engine.${name}() emitted nothing in 10 s`)), 10_000);
        const source = (window.engine[name] as (...a: unknown[]) => Observable<unknown>)(...list);
        const subscription = source.subscribe({
          next: (v) => {
            clearTimeout(timer);
            resolve(v);
            setTimeout(() => subscription.unsubscribe());
          },
          error: (e: unknown) => {
            clearTimeout(timer);
            reject(e instanceof Error ? e : new Error(JSON.stringify(e)));
          },
        });
      }),
    [query, args as unknown[]] as const,
  );
  return value as QueryValue<K>;
}
