import { describe, expect, it } from 'vitest';
import { ChatTurns } from '../../server/domain/chatTurns';

/** Issue 21: sends to one chat take turns on a node before they take a database connection. */

/** A task the test ends by hand, recording when it started. */
function task(log: string[], name: string) {
  let end!: (fail?: boolean) => void;
  const fn = () =>
    new Promise<string>((resolve, reject) => {
      log.push(`start ${name}`);
      end = (fail) => (fail ? reject(new Error(name)) : resolve(name));
    });
  return { fn, end: (fail?: boolean) => end(fail) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('ChatTurns', () => {
  it('runs one chat’s sends one at a time in the order they came, and other chats’ beside them', async () => {
    const turns = new ChatTurns();
    const log: string[] = [];
    const a1 = task(log, 'a1');
    const a2 = task(log, 'a2');
    const b1 = task(log, 'b1');
    const first = turns.run(1, a1.fn);
    const second = turns.run(1, a2.fn);
    const other = turns.run(2, b1.fn);
    await tick();
    expect(log).toEqual(['start a1', 'start b1']);
    a1.end();
    await expect(first).resolves.toBe('a1');
    await tick();
    expect(log).toEqual(['start a1', 'start b1', 'start a2']);
    a2.end();
    b1.end();
    await expect(second).resolves.toBe('a2');
    await expect(other).resolves.toBe('b1');
    await tick();
    expect(turns.size).toBe(0);
  });

  it('gives the next send its turn when the one before failed, and the failure to its own caller only', async () => {
    const turns = new ChatTurns();
    const log: string[] = [];
    const a1 = task(log, 'a1');
    const a2 = task(log, 'a2');
    const first = turns.run(7, a1.fn);
    const second = turns.run(7, a2.fn);
    await tick();
    a1.end(true);
    await expect(first).rejects.toThrow('a1');
    await tick();
    expect(log).toEqual(['start a1', 'start a2']);
    a2.end();
    await expect(second).resolves.toBe('a2');
  });
});
