import { describe, expect, it } from 'vitest';
import type { MessageSearchView } from '../../src/engine/api';
import { seriousViolations } from '../support/axe';
import { call, useTestServer } from '../support/server';
import { CLIENT_DIR, current, openTab, sendText, signedInWithFriend, useChromium } from '../support/tabs';
import type { Page } from 'playwright';

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

/** The hits of a search through the console API, each as its snippet with the matched words in brackets. */
async function found(page: Page, query: string): Promise<string[]> {
  const view: MessageSearchView = await current(page, 'searchMessages', query);
  return view.hits.map((h) => h.snippet.map((p) => (p.match ? `[${p.text}]` : p.text)).join(''));
}

const hitIds = async (page: Page, query: string): Promise<number[]> =>
  (await current(page, 'searchMessages', query)).hits.map((h) => h.id);

describe('search of the messages on this device (issue 13)', () => {
  it('finds a message sent in one tab from another within a second, folding Swedish and Indonesian', async () => {
    const context = await chromium.context();
    const a = await openTab(context, s.url);
    const b = await openTab(context, s.url);
    const { friend, conversationId } = await signedInWithFriend(a, s.url, 'Searcher');

    await sendText(a, conversationId, 'Vi ses på Kafé Ängeln i kväll');
    await expect.poll(() => found(b, 'kafe angeln'), { timeout: 1_000 }).toEqual(['Vi ses på [Kafé] [Ängeln] i kväll']);
    expect(await found(b, 'KVÄLL')).toEqual(['Vi ses på Kafé Ängeln i [kväll]']);
    expect(await found(b, 'kvall')).toEqual(['Vi ses på Kafé Ängeln i [kväll]']);
    // The last word is a prefix; every word must match.
    expect(await found(b, 'ses Ang')).toEqual(['Vi [ses] på Kafé [Ängeln] i kväll']);
    expect(await found(b, 'kafe morgon')).toEqual([]);

    // A friend's message arrives through the socket and is found by its Indonesian words.
    await call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
      token: friend.token,
      json: { client_id: 7, message: 'Sampai jumpa di kafé besok pagi' },
    });
    await expect.poll(() => found(b, 'besok PAGI')).toEqual(['Sampai jumpa di kafé [besok] [pagi]']);
    const view = await current(b, 'searchMessages', 'kafe', { conversationId });
    expect(view.hits.map((h) => [h.kind, h.conversationId, h.senderName])).toEqual([
      ['message', conversationId, 'Friend'],
      ['message', conversationId, 'Searcher'],
    ]);
    expect(view.complete).toBe(true);
    await context.close();
  });

  it('a deleted message is no longer found, an edited one only by its new words', async () => {
    const context = await chromium.context();
    const page = await openTab(context, s.url);
    const { conversationId } = await signedInWithFriend(page, s.url, 'Editor');
    await sendText(page, conversationId, 'meet me at the harbour');
    await sendText(page, conversationId, 'the zebra crossing is closed');
    await expect.poll(() => hitIds(page, 'zebra')).toHaveLength(1);
    const [zebra] = await hitIds(page, 'zebra');
    const [harbour] = await hitIds(page, 'harbour');

    await page.evaluate(([c, id]) => window.engine.deleteMessages(c, [id]), [conversationId, zebra ?? 0] as const);
    expect(await hitIds(page, 'zebra')).toEqual([]);

    await page.evaluate(([c, id]) => window.engine.editMessage(c, id, 'meet me at the lighthouse'), [conversationId, harbour ?? 0] as const);
    expect(await hitIds(page, 'harbour')).toEqual([]);
    expect(await found(page, 'lighthouse')).toEqual(['meet me at the [lighthouse]']);

    // The index outlives a reload: it is kept in IndexedDB.
    await page.reload();
    await expect.poll(() => found(page, 'lighthouse')).toEqual(['meet me at the [lighthouse]']);
    await context.close();
  });

  it('the device keeps the history chosen under Controls, in every tab and after a reload (en and sv)', async () => {
    const context = await chromium.context();
    const page = await openTab(context, s.url);
    const other = await openTab(context, s.url);
    await signedInWithFriend(page, s.url, 'Keeper');
    await page.goto(`${s.url}/settings/controls`);
    const everything = page.getByRole('radio', { name: /^Everything loaded/ });
    const latest = page.getByRole('radio', { name: /^The latest 1,000 per chat/ });
    await expect.poll(() => everything.isChecked()).toBe(true);
    expect(await current(page, 'historyKept')).toBe('everything');
    await latest.check();
    await expect.poll(() => current(other, 'historyKept')).toBe('latest-1000');
    expect(await page.getByRole('group', { name: 'History on this device' }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await page.evaluate(() => window.engine.setLanguage('sv'));
    await page.reload();
    await expect.poll(() => page.getByRole('radio', { name: /^De senaste 1 000 per chatt/ }).isChecked()).toBe(true);
    // Anything but the two choices is refused with the spec's text.
    const refusal = await page.evaluate(() => window.engine.setHistoryKept('all' as never).then(() => null, (e: { message: string }) => e.message));
    expect(refusal).toBe('Invalid parameters provided');
    await context.close();
  });
});
