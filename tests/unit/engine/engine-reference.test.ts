import { readFileSync } from 'node:fs';
import path from 'node:path';
import entries from 'virtual:engine-reference';
import { describe, expect, it } from 'vitest';
import { engineReference, firstSentence } from '../../../scripts/engine-reference';
import { apiKind, ENGINE_API } from '../../../src/engine/api';

const apiSource = readFileSync(path.resolve(import.meta.dirname, '../../../src/engine/api.ts'), 'utf8');

describe("engine.help()'s list (issue 24)", () => {
  it('names every line of the contract once, in its order and kind, each with its call and a description', () => {
    const fromTable = entries.filter((e) => e.kind !== 'tab');
    expect(fromTable.map((e) => e.name)).toEqual(Object.keys(ENGINE_API));
    for (const entry of fromTable) {
      expect(entry.kind, entry.name).toBe(apiKind(entry.name));
      expect(entry.call.startsWith(`${entry.name}(`) || entry.call.startsWith(`${entry.name}<`), entry.call).toBe(true);
      expect(entry.returns, entry.name).toMatch(entry.kind === 'void' ? /^void$/ : /^(Observable|Promise|ReturnType)</);
      // A new line of the table without its doc comment fails here: help() would have nothing to say of it.
      expect(entry.summary, `ENGINE_API.${entry.name} needs a doc comment`).not.toBe('');
    }
  });

  it("lists what the tab adds, help itself included, and reads the contract's own text", () => {
    const tab = entries.filter((e) => e.kind === 'tab').map((e) => e.name);
    expect(tab).toEqual(expect.arrayContaining(['tabId', 'mode', 'build', 'setOpenConversation', 'noteReloadInto', 'help']));
    for (const entry of entries.filter((e) => e.kind === 'tab')) expect(entry.summary, entry.name).not.toBe('');
    const send = entries.find((e) => e.name === 'sendMessage');
    expect(send).toMatchObject({
      call: 'sendMessage(conversationId: number, input: SendInput)',
      returns: 'Promise<OutboxEntry>',
      summary: 'Queues a message in the outbox (pending at once); a file is uploaded first, with its progress shown.',
    });
    // The module the app loads is the build's reading of api.ts as it is now, not a copy kept by hand.
    expect(entries).toEqual(engineReference(apiSource));
  });

  it('ends a summary at the end of a sentence only', () => {
    expect(firstSentence('Any call by name, e.g. `call(x)`. More here.')).toBe('Any call by name, e.g. `call(x)`.');
    expect(firstSentence('Spec §4.1 says so (see docs). Then more.')).toBe('Spec §4.1 says so (see docs).');
    expect(firstSentence('No full stop')).toBe('No full stop');
  });

  it('refuses a table line it cannot describe', () => {
    const broken = apiSource.replace(/^ {2}session: query<\(\) => Observable<SessionView>>\('session'\),$/m, "  session: somethingElse('session'),");
    expect(broken).not.toBe(apiSource);
    expect(() => engineReference(broken)).toThrow(/ENGINE_API\.session/);
  });
});
