import { describe, expect, it } from 'vitest';
import { CLIENT_DIR, useChromium } from '../support/tabs';
import { useTestServer } from '../support/server';

const server = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

describe('the console API explains itself (issue 24)', () => {
  it('engine.help() prints the contract as a table and one name in full', async () => {
    const context = await chromium.browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('console', (m) => logged.push(`${m.type()}: ${m.text()}`));
    await page.goto(server.url + '/login');
    await page.waitForFunction(() => typeof window.engine?.help === 'function');

    const list = await page.evaluate(async () => (await window.engine.help()).map((e) => [e.name, e.kind, e.summary]));
    const names = list.map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['sendMessage', 'messages', 'openConversationAt', 'help']));
    expect(list.every(([, , summary]) => typeof summary === 'string' && summary !== '')).toBe(true);
    await expect.poll(() => logged.some((line) => line.startsWith('table:'))).toBe(true);

    const one = await page.evaluate(async () => (await window.engine.help('sendMessage'))[0]?.call);
    expect(one).toBe('sendMessage(conversationId: number, input: SendInput)');
    await expect.poll(() => logged.some((line) => line.includes('engine.sendMessage(conversationId: number'))).toBe(true);
    expect(await page.evaluate(async () => (await window.engine.help('noSuchThing')).length)).toBe(0);
    await expect.poll(() => logged.some((line) => line.includes('engine.noSuchThing does not exist'))).toBe(true);
    await context.close();
  });

  it('serves engine.d.ts, the type of window.engine, as text', async () => {
    const response = await fetch(server.url + '/engine.d.ts');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text).toMatch(/^\s*engine: TabEngine;/m);
    expect(text).toMatch(/sendMessage/);
    expect(text).not.toMatch(/^import /m);
  });
});
