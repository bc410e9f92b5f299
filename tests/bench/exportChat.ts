import { performance } from 'node:perf_hooks';
import type { Browser } from 'playwright';
import { generateBigGroup } from '../../server/seed/history';
import { signUp, type TestServer } from '../support/server';
import { signInAs } from '../support/tabs';
import { newProfile, sleep, until, withApp } from './app';
import { ConversationExporter } from '../../src/engine/export/exporter';
import type { RestCalls } from '../../src/engine/contract/restCalls';
import { MemoryStorage } from '../../src/engine/storage/storage';
import type { Conversation, Message } from '../../src/protocol/entities';
import { type Figure, figure, formatNumber, median, repeat } from './harness';
import { messages as searchTexts } from './search';
import type { Sizes } from './sizes';
import { message } from '../unit/engine/state.fixtures';

/**
 * Issue 24's export figures: the engine's own export (src/engine/export) in Node, as its worker runs it,
 * over a chat this device keeps whole (the `messages` store), to HTML and to JSON; the baseline is the same
 * over a small chat. The file is made in the worker and crosses to the tab as a Blob (by reference), so the
 * tab's thread does none of this. That half is measured in Chromium (production build) against the real
 * server: the export of the whole history from the server, started in the chat settings UI, with the longest task
 * on the tab's main thread from the click until the download (Long Tasks API, as searchTyping.ts does).
 */
function chat(count: number): { storage: MemoryStorage; conversation: Conversation; ready: Promise<void> } {
  const storage = new MemoryStorage();
  const users = Array.from({ length: 7 }, (_, i) => ({ user: { id: i + 1, user_id: i + 1, nickname: `User ${i + 1}`, phone_nr: '' }, is_admin: i === 0 }));
  const conversation = { id: 1, name: 'Big group', users } as unknown as Conversation;
  const rows: Message[] = searchTexts(count).map((doc) =>
    message(doc.id, { conversation_id: 1, user_id: doc.userId, message: doc.text, created_at: String(Math.floor(doc.createdAt / 1000)) }),
  );
  const ready = storage.writeBatch(rows.map((m) => ({ store: 'messages', type: 'put', key: String(m.id), value: m })));
  return { storage, conversation, ready };
}

async function exportMs(storage: MemoryStorage, conversation: Conversation, format: 'html' | 'json'): Promise<number> {
  const exporter = new ConversationExporter({
    rest: () => ({}) as RestCalls,
    storage,
    conversation: async () => conversation,
    language: () => 'en',
    apiBase: () => 'https://chat.example',
    now: () => Date.now(),
  });
  const t0 = performance.now();
  const result = await exporter.exportConversation(1, { format });
  // The bytes exist once the Blob is read, as the tab's download reads it.
  await result.blob.arrayBuffer();
  return performance.now() - t0;
}

/**
 * One export in the UI, in a fresh profile: chat settings, "The whole history from the server", Export chat; the
 * longest main-thread task of the tab (0: none over 50 ms) and the ms from the click to the download.
 */
async function uiRun(s: TestServer, browser: Browser, phone: string, conversationId: number): Promise<{ longest: number; ms: number }> {
  const context = await newProfile(browser, { viewport: { width: 1300, height: 850 }, locale: 'en-US', acceptDownloads: true });
  try {
    const page = await context.newPage();
    await page.goto(s.url);
    await page.waitForFunction(() => 'engine' in window);
    await signInAs(page, phone);
    await page.goto(`${s.url}/inbox/${conversationId}`);
    await page.locator('[role="log"] [data-message-id]').first().waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Chat settings', exact: true }).click();
    const section = page.locator('aside.right-panel [data-export-chat]');
    await section.waitFor();
    await section.scrollIntoViewIfNeeded();
    await section.getByLabel(/The whole history from the server/).check();
    await sleep(500);
    await page.evaluate(() => {
      const w = window as unknown as { __longTasks: number[] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
      }).observe({ type: 'longtask' });
    });
    const t0 = performance.now();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 600_000 }),
      section.getByRole('button', { name: 'Export chat' }).click(),
    ]);
    const ms = performance.now() - t0;
    const status = section.getByRole('status');
    await until('the saved note', async () => (/^Saved /.test((await status.textContent()) ?? '') ? true : undefined), 30_000, 50);
    await sleep(300);
    const longest = await page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));
    await download.delete();
    return { longest, ms };
  } finally {
    await context.close();
  }
}

/** The UI half: the export of `exportMessages` from the server against `exportBaselineMessages`, each run in new profiles. */
function uiBench(sizes: Sizes, clientDir: string): Promise<Figure[]> {
  return withApp(clientDir, async ({ s, browser }) => {
    const db = s.server.ctx.db;
    // A new reader and new chats each run: the server limits how often one number may ask for a PIN.
    const runs = await repeat(sizes.runs, async () => {
      const reader = await signUp(s.url, 'Exporter');
      const small = await generateBigGroup(db, reader.id, sizes.exportBaselineMessages, Date.now());
      const smallRun = await uiRun(s, browser, reader.phone, small.conversationId);
      const other = await signUp(s.url, 'Exporter');
      const big = await generateBigGroup(db, other.id, sizes.exportMessages, Date.now());
      return { big: await uiRun(s, browser, other.phone, big.conversationId), small: smallRun };
    });
    const note = `chat settings, "The whole history from the server", HTML, from the click until the download; production build; the export took ${runs
      .map((r) => formatNumber(r.big.ms / 1000))
      .join(', ')} s (${formatNumber(median(runs.map((r) => r.small.ms)) / 1000)} s for ${sizes.exportBaselineMessages} messages)`;
    return [
      figure({
        benchmark: 'export',
        name: `longest main-thread task in the tab during the export of ${sizes.exportMessages} messages`,
        unit: 'ms',
        runs: runs.map((r) => r.big.longest),
        baseline: { name: `the same, ${sizes.exportBaselineMessages} messages`, runs: runs.map((r) => r.small.longest) },
        target: { of: 'value', op: '<=', bound: 50 },
        note: `Long Tasks API in the tab (0: no task over 50 ms); ${note}`,
      }),
      figure({
        benchmark: 'export',
        name: `export of ${sizes.exportMessages} messages from the server in the UI, click to download`,
        unit: 'ms',
        runs: runs.map((r) => r.big.ms),
        baseline: { name: `the same, ${sizes.exportBaselineMessages} messages`, runs: runs.map((r) => r.small.ms) },
        note: 'the engine worker pages the server 100 messages a request, then writes the file',
      }),
    ];
  });
}

export async function exportBench(sizes: Sizes, clientDir: string): Promise<Figure[]> {
  return [...(await nodeBench(sizes)), ...(await uiBench(sizes, clientDir))];
}

async function nodeBench(sizes: Sizes): Promise<Figure[]> {
  const big = chat(sizes.exportMessages);
  const small = chat(sizes.exportBaselineMessages);
  await Promise.all([big.ready, small.ready]);
  const runs = await repeat(sizes.runs, async () => ({
    html: await exportMs(big.storage, big.conversation, 'html'),
    htmlBaseline: await exportMs(small.storage, small.conversation, 'html'),
    json: await exportMs(big.storage, big.conversation, 'json'),
    jsonBaseline: await exportMs(small.storage, small.conversation, 'json'),
  }));
  const note =
    'the engine export in Node (the worker does it): read from the device store, write the file, read the Blob; Zipf text of 3–17 words a message';
  return [
    figure({
      benchmark: 'export',
      name: `export: readable HTML of ${sizes.exportMessages} messages (worker)`,
      unit: 'ms',
      runs: runs.map((r) => r.html),
      baseline: { name: `the same, ${sizes.exportBaselineMessages} messages`, runs: runs.map((r) => r.htmlBaseline) },
      note,
    }),
    figure({
      benchmark: 'export',
      name: `export: JSON of ${sizes.exportMessages} messages (worker)`,
      unit: 'ms',
      runs: runs.map((r) => r.json),
      baseline: { name: `the same, ${sizes.exportBaselineMessages} messages`, runs: runs.map((r) => r.jsonBaseline) },
      note,
    }),
  ];
}
