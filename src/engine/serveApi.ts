import { type ApiArea, type ApiName, type ApiNameOfArea, ENGINE_API, type EngineApi } from './api';

/**
 * How a part may implement a name of the table: as the API has it, or, for a command, answering at once
 * instead of with a Promise (serveApi makes every command's answer a Promise).
 */
type Implementation<N extends ApiName> = (typeof ENGINE_API)[N]['kind'] extends 'command'
  ? EngineApi[N] | (EngineApi[N] extends (...args: infer P) => Promise<infer R> ? (...args: P) => R | Promise<R> : never)
  : EngineApi[N];

/** What the object that answers an area must have: a method for every name the table gives that area. */
export type AreaImplementation<A extends ApiArea> = { [N in ApiNameOfArea<A>]: Implementation<N> };

/**
 * The object of every area but the Engine's own, read at each call: a part of the signed-in chunk is a
 * stand-in (deferredPart.ts) until it is loaded, and itself afterwards.
 */
export type AreaParts = { [A in Exclude<ApiArea, 'engine'>]: () => AreaImplementation<A> };

/** The names the Engine does not answer itself. */
export type DelegatedApi = Omit<EngineApi, ApiNameOfArea<'engine'>>;

type AnyMethod = (...args: unknown[]) => unknown;

/**
 * The methods of EngineApi that a part answers, built from the table (api.ts): each name calls the method of
 * the same name on its area's part, so the engine holds no forwarder per name, and a new command needs its
 * line in the table and its method in the part. The types above check that every part has every name of its
 * area, with the table's arguments and result.
 */
export function serveApi(parts: AreaParts): DelegatedApi {
  const api: Record<string, AnyMethod> = {};
  for (const name of Object.keys(ENGINE_API) as ApiName[]) {
    const { area, kind } = ENGINE_API[name];
    if (area === 'engine') continue;
    const partOf = parts[area] as () => object;
    const invoke = (args: unknown[]) => {
      const part = partOf() as Record<string, AnyMethod>;
      return part[name]!.apply(part, args);
    };
    // async: a command that answers at once, or throws, still answers with a Promise, as EngineApi says.
    api[name] = kind === 'command' ? async (...args) => invoke(args) : (...args) => invoke(args);
  }
  return api as unknown as DelegatedApi;
}
