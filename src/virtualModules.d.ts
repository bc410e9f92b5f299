/** The contract's list for `engine.help()`, made by the build from src/engine/api.ts (scripts/vite-engine-reference.ts). */
declare module 'virtual:engine-reference' {
  // An ambient module may not import by a relative name; an import type may.
  // eslint-disable-next-line @typescript-eslint/consistent-type-imports
  const entries: readonly import('./engine/api').ApiHelpEntry[];
  export default entries;
}
