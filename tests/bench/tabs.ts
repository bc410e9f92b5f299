import type { BrowserContext, Page } from 'playwright';
import type { Delivery } from '../../server/realtime/events';
import { call, signUp, type TestServer } from '../support/server';
import { createChat, signInAs } from '../support/tabs';
import { type AppEnv, newProfile, sleep, until, withApp } from './app';
import { BrowserTargets } from './cdp';
import { type Figure, figure, median, quantile, repeat } from './harness';
import type { Sizes } from './sizes';

/**
 * Issue 11: 1, 5, 10 and 20 tabs of one profile (the bench build in Chromium, the real server in this
 * process): the websockets the server sees, the JS heap each added tab costs (tabs and engine workers, after
 * garbage collection), the p95 time from the server's send of a message to that message in the chat of
 * every tab's DOM, and messages that never showed. Baseline: the same tabs with `?bench=engine-per-tab`,
 * where every tab runs its own engine and socket (a dedicated worker without the election; bench builds only).
 */

const MB = 1024 * 1024;
const TEXT = /tabs bench (\d+)/g;

interface CountFigures {
  tabs: number;
  sockets: number;
  heapMB: number[];
  p95Ms: number[];
  missing: number;
  messages: number;
}

/** Notes in the tab when each "tabs bench N" text first shows in the chat's message list. */
async function watchTexts(page: Page): Promise<void> {
  await page.evaluate((source) => {
    const seen: Record<string, number> = {};
    Object.assign(window, { __seen: seen });
    const pattern = new RegExp(source, 'g');
    new MutationObserver((records) => {
      const at = Date.now();
      for (const record of records) {
        const nodes = record.type === 'characterData' ? [record.target] : [...record.addedNodes];
        for (const node of nodes) {
          const el = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement;
          if (!el?.closest('[role="log"]')) continue;
          for (const match of (node.textContent ?? '').matchAll(pattern)) seen[match[1] as string] ??= at;
        }
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, TEXT.source);
}

async function openChatTab(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('[role="log"]').waitFor({ timeout: 30_000 });
  await watchTexts(page);
  return page;
}

/** When the server handed each message's frame to the user's sockets (ms since the epoch), by text number. */
function noteServerSends(s: TestServer): Map<string, number> {
  const sentAt = new Map<string, number>();
  const hub = s.server.hub;
  const deliver = hub.deliver.bind(hub);
  hub.deliver = (deliveries: Delivery[]) => {
    const at = Date.now();
    for (const { frame } of deliveries) {
      if (frame.action !== 'conversation_message') continue;
      const text = (frame.data as { message: { message: string } }).message.message;
      for (const match of text.matchAll(TEXT)) if (!sentAt.has(match[1] as string)) sentAt.set(match[1] as string, at);
    }
    deliver(deliveries);
  };
  return sentAt;
}

async function runMode(env: AppEnv, sizes: Sizes, perTab: boolean, sentAt: Map<string, number>, next: { n: number }): Promise<CountFigures[]> {
  const { s, browser } = env;
  const query = perTab ? '?bench=engine-per-tab' : '';
  const context = await newProfile(browser);
  const targets = await BrowserTargets.open(browser);
  try {
    const sender = await signUp(s.url, 'Sender');
    const me = await signUp(s.url, perTab ? 'Engine per tab' : 'One engine');
    const first = await context.newPage();
    await first.goto(s.url + query);
    await first.waitForFunction(() => 'engine' in window);
    await signInAs(first, me.phone);
    const conversationId = await createChat(first, 'Sender', sender.phone);
    const chatUrl = `${s.url}/inbox/${conversationId}${query}`;
    await first.goto(chatUrl);
    await first.locator('[role="log"]').waitFor({ timeout: 30_000 });
    await watchTexts(first);
    const tabs = [first];
    const results: CountFigures[] = [];
    for (const count of sizes.tabs) {
      while (tabs.length < count) tabs.push(await openChatTab(context, chatUrl));
      // Every engine has its socket up before anything is measured.
      await until(`${count} tabs to connect`, async () => {
        const sockets = s.server.hub.connectionCount(me.id);
        return sockets >= (perTab ? count : 1) ? sockets : undefined;
      }, 60_000, 200);
      await sleep(500);
      const heapMB = await repeat(sizes.runs, async () => (await targets.appHeap(s.url)).total / MB);
      const p95Ms: number[] = [];
      let missing = 0;
      let messages = 0;
      for (let run = 0; run < sizes.runs; run++) {
        const numbers: string[] = [];
        for (let i = 0; i < sizes.tabMessages; i++) {
          const n = String(next.n++);
          numbers.push(n);
          await call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
            token: sender.token,
            json: { message: `tabs bench ${n}`, client_id: 1 + (Number(n) % 9999) },
          });
          await sleep(150);
        }
        // Every tab shows every message, or 10 s pass.
        const end = Date.now() + 10_000;
        let seen: Record<string, number>[] = [];
        for (;;) {
          seen = await Promise.all(tabs.map((t) => t.evaluate(() => (window as unknown as { __seen: Record<string, number> }).__seen)));
          if (seen.every((byText) => numbers.every((n) => n in byText)) || Date.now() > end) break;
          await sleep(100);
        }
        const latencies: number[] = [];
        for (const n of numbers) {
          const sent = sentAt.get(n);
          for (const byText of seen) {
            const at = byText[n];
            if (at === undefined || sent === undefined) missing += 1;
            else latencies.push(at - sent);
          }
        }
        messages += numbers.length;
        p95Ms.push(quantile(latencies, 0.95));
      }
      results.push({ tabs: count, sockets: s.server.hub.connectionCount(me.id), heapMB, p95Ms, missing, messages });
    }
    return results;
  } finally {
    await targets.close();
    await context.close();
  }
}

export async function tabsBench(sizes: Sizes, clientDir: string, log: (line: string) => void): Promise<Figure[]> {
  return withApp(clientDir, async (env) => {
    const sentAt = noteServerSends(env.s);
    const next = { n: 1 };
    const shared = await runMode(env, sizes, false, sentAt, next);
    log(`tabs: one engine measured at ${shared.map((c) => c.tabs).join(', ')} tabs`);
    const perTab = await runMode(env, sizes, true, sentAt, next);
    const figures: Figure[] = [];
    const one = (list: CountFigures[]) => list.find((c) => c.tabs === Math.min(...sizes.tabs)) as CountFigures;
    for (const [i, c] of shared.entries()) {
      const base = perTab[i] as CountFigures;
      const benchmark = 'tabs';
      figures.push(
        figure({
          benchmark,
          name: `websockets the server sees, ${c.tabs} tab${c.tabs === 1 ? '' : 's'}`,
          unit: '',
          runs: [c.sockets],
          baseline: { name: 'every tab its own engine and socket (?bench=engine-per-tab)', runs: [base.sockets] },
          target: { of: 'value', op: '<=', bound: 1 },
        }),
      );
      const first = one(shared);
      const baseFirst = one(perTab);
      if (c.tabs > first.tabs) {
        const added = c.tabs - first.tabs;
        figures.push(
          figure({
            benchmark,
            name: `JS heap per added tab, ${c.tabs} tabs`,
            unit: 'MB',
            runs: c.heapMB.map((h, r) => (h - (first.heapMB[r] as number)) / added),
            baseline: {
              name: 'the same, every tab its own engine',
              runs: base.heapMB.map((h, r) => (h - (baseFirst.heapMB[r] as number)) / added),
            },
            note: `all tabs and engine workers after a full GC: ${median(c.heapMB).toFixed(1)} MB at ${c.tabs} tabs, ${median(first.heapMB).toFixed(1)} MB at ${first.tabs}`,
          }),
        );
      }
      figures.push(
        figure({
          benchmark,
          name: `p95 server send to every tab's DOM, ${c.tabs} tab${c.tabs === 1 ? '' : 's'}`,
          unit: 'ms',
          runs: c.p95Ms,
          baseline: { name: 'the same, every tab its own engine and socket', runs: base.p95Ms },
          note: `per run the p95 over ${sizes.tabMessages} messages × ${c.tabs} tabs`,
        }),
      );
      figures.push(
        figure({
          benchmark,
          name: `messages missing in a tab, ${c.tabs} tab${c.tabs === 1 ? '' : 's'}`,
          unit: '',
          runs: [c.missing],
          target: { of: 'value', op: '<=', bound: 0 },
          note: `${c.messages} messages to ${c.tabs} tabs; with an engine per tab ${base.missing} missing`,
        }),
      );
    }
    return figures;
  });
}
