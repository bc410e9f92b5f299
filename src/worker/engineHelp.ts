import type { ApiHelpEntry } from '../engine/api';

/**
 * `engine.help(name?)` (issue 24): the contract's own list (read from src/engine/api.ts by the build,
 * scripts/vite-engine-reference.ts), loaded on the first call so that no page pays for it before.
 */
export async function engineHelp(name?: string): Promise<readonly ApiHelpEntry[]> {
  const { default: entries } = await import('virtual:engine-reference');
  if (name === undefined) {
    console.table(
      Object.fromEntries(entries.map((e) => [e.name, { kind: e.kind, call: e.call, answers: e.returns, what: e.summary }])),
    );
    console.info('engine.help(name) gives one name in full; README "The engine and the console API" shows examples.');
    return entries;
  }
  const entry = entries.find((e) => e.name === name);
  if (!entry) {
    console.warn(`engine.${String(name)} does not exist: engine.help() lists every name.`);
    return [];
  }
  console.info(`engine.${entry.call} → ${entry.returns}  (${entry.kind})\n\n${entry.doc || '(no description)'}`);
  return [entry];
}
