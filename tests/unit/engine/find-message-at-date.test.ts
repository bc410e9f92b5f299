import { describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine';
import { localMidnight } from '../../../src/engine/conversations/conversationCommands';
import type { HttpTransport } from '../../../src/engine/rest';
import { MemoryStorage } from '../../../src/engine/storage/storage';

/** "Go to date" (issue 24): the day the UI gives becomes the server's `Since`; what is not a day is refused. */
describe('findMessageAtDate', () => {
  it("takes a calendar day as its local midnight, in epoch seconds", () => {
    expect(localMidnight('2026-03-03')).toBe(new Date(2026, 2, 3).getTime() / 1000);
    expect(localMidnight('2024-02-29')).toBe(new Date(2024, 1, 29).getTime() / 1000);
    for (const bad of ['2026-02-30', '2026-13-01', '2026-3-3', '03/03/2026', '', 'yesterday', 20260303, null]) {
      expect(localMidnight(bad), String(bad)).toBeNull();
    }
  });

  it("asks the server for one message from that midnight on, and refuses bad input before asking", async () => {
    const asked: { url: string; headers: Record<string, string> }[] = [];
    const transport: HttpTransport = {
      request: (request) => {
        asked.push({ url: request.url, headers: { ...request.headers } });
        return Promise.reject(new Error('no network in this test'));
      },
      upload: () => Promise.reject(new Error('no network in this test')),
    };
    const engine = new Engine({ storage: new MemoryStorage(), apiBase: 'http://server.test', transport, log: () => undefined });
    await expect(engine.findMessageAtDate(7, '2026-02-30')).rejects.toMatchObject({ message: 'Invalid parameters provided' });
    await expect(engine.findMessageAtDate(0, '2026-03-03')).rejects.toMatchObject({ message: 'Invalid parameters provided' });
    expect(asked).toEqual([]);
    await expect(engine.findMessageAtDate(7, '2026-03-03')).rejects.toBeTruthy();
    expect(asked).toHaveLength(1);
    expect(asked[0]?.url).toBe('http://server.test/v2/conversations/7/messages');
    expect(asked[0]?.headers).toMatchObject({ Since: String(new Date(2026, 2, 3).getTime() / 1000), 'Message-Count': '1' });
    await engine.stop();
  });
});
