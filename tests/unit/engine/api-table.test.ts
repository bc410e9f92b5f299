import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isObservable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import * as api from '../../../src/engine/api';
import { type ApiKind, apiNames, ENGINE_API, type TabEngine } from '../../../src/engine/api';
import { Engine } from '../../../src/engine/engine';
import type { HttpTransport } from '../../../src/engine/rest';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { COMMAND_NAMES, EVENT_QUERIES, isCommandName, isQueryName, QUERY_NAMES, VOID_COMMANDS } from '../../../src/worker/names';

/**
 * Issue 22: the table in src/engine/api.ts is the one place a query or command is declared. What lists them
 * elsewhere is derived from it (names.ts, deferredPart, serveApi) or, for the READMEs, checked against it here.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** What a tab's `window.engine` has besides the table (TabEngine's own members). */
const TAB_ONLY = ['tabId', 'mode', 'build', 'setOpenConversation', 'noteReloadInto', 'help'] as const satisfies readonly Exclude<
  keyof TabEngine,
  keyof typeof ENGINE_API
>[];

/** The section of a markdown text under `heading`, up to the next heading of its level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, `README has "${heading}"`).toBeGreaterThanOrEqual(0);
  const level = heading.split(' ')[0]!;
  const end = text.indexOf(`\n${level} `, start + heading.length + 2);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The block of src/worker/README.md that lists the table's names, as it must read. */
function workerReadmeNames(): string {
  const list = (...kinds: ApiKind[]) => apiNames(...kinds).map((name) => `\`${name}\``).join(', ');
  return [
    '<!-- api-names: the table of src/engine/api.ts; tests/unit/engine/api-table.test.ts checks this list -->',
    `  Queries: ${list('query')}.`,
    `  Event queries (never merged or replayed; \`EVENT_QUERIES\`): ${list('event')}.`,
    `  Commands: ${list('command')}.`,
    `  Fire and forget (\`VOID_COMMANDS\`: the tab does not wait): ${list('void')}.`,
    '  <!-- /api-names -->',
  ].join('\n');
}

describe('the API table', () => {
  const names = Object.keys(ENGINE_API);

  it("gives the worker's name lists: every name a query or a command, never both", () => {
    expect([...QUERY_NAMES, ...COMMAND_NAMES].sort()).toEqual([...names].sort());
    expect(QUERY_NAMES.filter((n) => (COMMAND_NAMES as readonly string[]).includes(n))).toEqual([]);
    expect([...EVENT_QUERIES].sort()).toEqual(['notifications', 'removedConversations']);
    expect(VOID_COMMANDS.every((n) => COMMAND_NAMES.includes(n))).toBe(true);
    for (const name of names) expect(isQueryName(name) !== isCommandName(name)).toBe(true);
    // Names from a port are not trusted: nothing but the table's own keys is a query or a command.
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', '', 42, null]) {
      expect(isQueryName(name) || isCommandName(name)).toBe(false);
    }
  });

  it('is what the engine answers: every name a method, a part still loading answering by its kind', async () => {
    const offline: HttpTransport = {
      request: () => Promise.reject(new Error('no network in this test')),
      upload: () => Promise.reject(new Error('no network in this test')),
    };
    const engine = new Engine({ storage: new MemoryStorage(), apiBase: 'http://server.test', transport: offline, log: () => undefined });
    const methods = engine as unknown as Record<string, unknown>;
    for (const name of names) expect(typeof methods[name], name).toBe('function');
    // Before sign-in the chats are not loaded: their query is an Observable at once, a command a Promise,
    // whether the part answers at once (canEdit) or not.
    expect(isObservable(engine.conversations())).toBe(true);
    const answer = engine.canEdit(1);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(false);
    await engine.stop();
  });

  it("README.md's console section names every query and command, and nothing the API lacks", () => {
    const text = section(read('README.md'), '## The engine and the console API');
    const mentioned = new Set([
      // `engine.d.ts` is the file of the types, not a name.
      ...[...text.matchAll(/\bengine\.(\w+)(?!\.ts\b)/g)].map((m) => m[1]!),
      ...[...text.matchAll(/`(\w+)\(/g)].map((m) => m[1]!),
    ]);
    // The contract's exported helpers (attachmentProblem, …) may be named too.
    const known = new Set<string>([...names, ...TAB_ONLY, ...Object.keys(api)]);
    expect(names.filter((name) => !mentioned.has(name))).toEqual([]);
    expect([...mentioned].filter((name) => !known.has(name))).toEqual([]);
  });

  it("src/worker/README.md's list of names is the table's", () => {
    const text = read('src/worker/README.md');
    const start = text.indexOf('<!-- api-names');
    const end = text.indexOf('<!-- /api-names -->');
    expect(start, 'src/worker/README.md has the api-names block').toBeGreaterThanOrEqual(0);
    // On a failure the expected block is printed whole: paste it over the old one.
    expect(text.slice(start, end + '<!-- /api-names -->'.length)).toBe(workerReadmeNames());
  });
});
