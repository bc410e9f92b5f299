import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineTypes } from '../../../scripts/engine-types';

/**
 * engine.d.ts (issue 24) as a developer's editor would use it: a plain script beside it, referencing it, with
 * nothing else installed (no rxjs, no app sources), type-checked by TypeScript.
 */
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'engine-types-'));
  writeFileSync(path.join(dir, 'engine.d.ts'), engineTypes());
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(script: string): string[] {
  const file = path.join(dir, `script-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, `/// <reference path="./engine.d.ts" />\n${script}\nexport {};\n`);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('engine.d.ts', () => {
  it("types window.engine's queries, commands and answers with no import", () => {
    expect(
      check(`
        const subscription = engine.messages(1).subscribe((view) => view.messages.map((m) => m.message.toUpperCase()));
        subscription.unsubscribe();
        void window.engine.sendMessage(1, { text: 'hi' }).then((entry) => entry.localId.length);
        void engine.help('sendMessage').then((list) => list[0]?.summary);
        void engine.call('getCommunities', { onlyJoined: true });
        engine.conversations().subscribe({ next: (list) => list[0]?.conversation.id, error: console.error });
        const tab: string = engine.tabId;
      `),
    ).toEqual([]);
  });

  it('refuses what the engine would not take', () => {
    const problems = check(`
      engine.noSuchCommand();
      void engine.sendMessage('one', { text: 'hi' });
      engine.messages(1).subscribe((view) => view.nothing);
    `);
    expect(problems.join('\n')).toMatch(/noSuchCommand/);
    expect(problems.join('\n')).toMatch(/'string' is not assignable to parameter of type 'number'/);
    expect(problems.join('\n')).toMatch(/nothing/);
    expect(problems).toHaveLength(3);
  });
});
