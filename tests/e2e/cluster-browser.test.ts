import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONNECT_DELAY_MS } from '../../src/protocol/constants';
import { type InProcessCluster, startInProcessCluster } from '../support/cluster';
import { CLIENT_DIR, createChat, current, messageTexts, openTab, signedInPerson, useChromium } from '../support/tabs';

/**
 * Issue 21 in Chromium: the app served by three nodes behind HAProxy. Two people chat through the UI while
 * their tabs' sockets sit on whichever nodes the proxy picked; when the node holding one of them drains, that
 * tab's engine is back on another node faster than a plain reconnect (the 1012 close skips the 3 s wait),
 * and nothing typed is lost.
 */

let cluster: InProcessCluster;
const chromium = useChromium();

beforeAll(async () => {
  cluster = await startInProcessCluster(3, { clientDir: CLIENT_DIR }, { proxy: true });
});

afterAll(async () => {
  await cluster?.stop();
});

const base = () => cluster.proxy?.url as string;
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });

async function typeAndSend(page: Page, text: string): Promise<void> {
  await composer(page).click();
  await composer(page).fill(text);
  await composer(page).press('Enter');
}

/** The nodes holding a socket of the user. */
const holders = (userId: number) => cluster.nodes.filter((n) => n.server.hub.connectionCount(userId) > 0);

describe('the app on three nodes behind HAProxy', () => {
  it('lets two people chat through the UI, and moves a tab off a draining node at once', async () => {
    const anna = await signedInPerson(chromium, { url: base() }, 'Anna', { context: { locale: 'en-US' } });
    const bo = await signedInPerson(chromium, { url: base() }, 'Bo', { context: { locale: 'en-US' } });
    const chatId = await createChat(anna.page, 'Bo', bo.user.phone);
    for (const person of [anna, bo]) await expect.poll(() => current(person.page, 'connection')).toBe('online');

    await anna.page.goto(`${base()}/inbox/${chatId}`);
    await composer(anna.page).waitFor();
    await typeAndSend(anna.page, 'Hej Bo, från en nod');
    // Bo learns of the chat from the socket, then shows it.
    await expect.poll(async () => (await current(bo.page, 'conversations')).map((c) => c.conversation.id)).toContain(chatId);
    await bo.page.goto(`${base()}/inbox/${chatId}`);
    await composer(bo.page).waitFor();
    await expect.poll(() => messageTexts(bo.page, chatId)).toEqual(['Hej Bo, från en nod']);
    await bo.page.getByRole('main', { name: 'Chat' }).getByText('Hej Bo, från en nod').waitFor();

    await expect.poll(() => holders(bo.user.id).length).toBe(1);
    const [draining] = holders(bo.user.id);
    const started = performance.now();
    const drained = draining?.server.drain(5_000);
    await expect
      .poll(() => holders(bo.user.id).filter((n) => n !== draining).length, { timeout: 10_000, interval: 50 })
      .toBe(1);
    const movedMs = performance.now() - started;
    await drained;
    // A plain reconnect waits RECONNECT_DELAY_MS plus up to a second; after 1012 only the second.
    expect(movedMs).toBeLessThan(RECONNECT_DELAY_MS);
    await expect.poll(() => current(bo.page, 'connection')).toBe('online');

    // Whichever node Anna's tab and her sends are on now, Bo gets the next message too; a page of the app
    // still loads through the proxy.
    await typeAndSend(anna.page, 'Och en till');
    await expect.poll(() => messageTexts(bo.page, chatId)).toEqual(['Hej Bo, från en nod', 'Och en till']);
    await bo.page.getByRole('main', { name: 'Chat' }).getByText('Och en till').waitFor();
    const again = await openTab(anna.context, `${base()}/inbox/${chatId}`);
    await composer(again).waitFor();
    await again.close();
  });
});
