import type { Browser, Page } from 'playwright';
import { signUp, type TestServer } from '../support/server';
import { closeEngineWorkers, createChat, messageTexts, openTab, sendText, signInAs, storedCount } from '../support/tabs';
import { newProfile, withApp } from './app';
import { type Figure, figure } from './harness';
import type { Sizes } from './sizes';

/**
 * Issue 14's figures, in Chromium against the real server and the built app: how long after its
 * SharedWorker is killed (over CDP, as a crash would) every one of three tabs has a working engine again
 * (a command answered), with a message queued right before each kill, against the heartbeat-only path as
 * the baseline (`?bench=heartbeat-only`, src/ui/main.tsx); and whether every queued message is on the
 * server and in every tab exactly once. Many tabs of one profile are the tabs benchmark's (tabs.ts).
 */

export interface RecoveryRun {
  /** Per kill: ms from the kill until the last of the tabs answered a command. */
  timesMs: number[];
  /** Messages queued right before a kill that the server holds other than exactly once. */
  lostOrDuplicated: number;
  /** Messages missing from, or shown twice in, a tab afterwards. */
  tabMisses: number;
}

export async function recoveryFigures(sizes: Sizes, clientDir: string): Promise<Figure[]> {
  return withApp(clientDir, async (env) => {
    const lock = await killAndRecover(env, { rounds: Math.max(sizes.runs, sizes.recoveryRounds), heartbeatOnly: false });
    const heartbeat = await killAndRecover(env, { rounds: Math.max(sizes.runs, sizes.recoveryRounds), heartbeatOnly: true });
    const baseline = { name: 'the same, noticed by the heartbeat alone (?bench=heartbeat-only)', runs: heartbeat.timesMs };
    return [
      figure({
        benchmark: 'recovery',
        name: 'engine killed: a working engine in each of 3 tabs again (Web Lock)',
        unit: 'ms',
        runs: lock.timesMs,
        baseline,
        target: { of: 'ratio', op: '<=', bound: 0.25 },
      }),
      figure({
        benchmark: 'recovery',
        name: 'engine killed: the same, absolute',
        unit: 'ms',
        runs: lock.timesMs,
        target: { of: 'value', op: '<=', bound: 1_000 },
      }),
      figure({
        benchmark: 'recovery',
        name: 'messages queued right before a kill lost or duplicated',
        unit: '',
        runs: [lock.lostOrDuplicated + lock.tabMisses + heartbeat.lostOrDuplicated + heartbeat.tabMisses],
        target: { of: 'value', op: '<=', bound: 0 },
        note: `${lock.timesMs.length + heartbeat.timesMs.length} messages, each checked on the server and in 3 tabs`,
      }),
    ];
  });
}

/** Resolves with the time (ms since the epoch) at which the tab's engine answered a command. */
const answeredAt = (page: Page): Promise<number> =>
  page.evaluate(async () => {
    for (;;) {
      const answered = await Promise.race([
        window.engine.canEdit(0).then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 50)),
      ]);
      if (answered) return Date.now();
    }
  });

export async function killAndRecover(
  env: { s: TestServer; browser: Browser },
  options: { rounds: number; heartbeatOnly: boolean },
): Promise<RecoveryRun> {
  const { s, browser } = env;
  const context = await newProfile(browser);
  try {
    const query = options.heartbeatOnly ? '?bench=heartbeat-only' : '';
    const friend = await signUp(s.url, 'Friend');
    const me = await signUp(s.url, 'Revived');
    const first = await openTab(context, s.url + query);
    await signInAs(first, me.phone);
    const conversationId = await createChat(first, 'Friend', friend.phone);
    const tabs = [first, await openTab(context, s.url + query), await openTab(context, s.url + query)];
    const timesMs: number[] = [];
    const texts: string[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const text = `queued before kill ${round} (${options.heartbeatOnly ? 'heartbeat' : 'lock'})`;
      texts.push(text);
      await sendText(tabs[round % tabs.length]!, conversationId, text);
      const killedAt = Date.now();
      if ((await closeEngineWorkers(browser)) !== 1) throw new Error('expected one SharedWorker to kill');
      const answered = await Promise.all(tabs.map(answeredAt));
      timesMs.push(Math.max(...answered) - killedAt);
    }
    let tabMisses = 0;
    for (const tab of tabs) {
      const shown = await waitForTexts(tab, conversationId, texts);
      tabMisses += texts.filter((t) => shown.filter((x) => x === t).length !== 1).length;
    }
    let lostOrDuplicated = 0;
    for (const t of texts) if ((await storedCount(s, t)) !== 1) lostOrDuplicated += 1;
    return { timesMs, lostOrDuplicated, tabMisses };
  } finally {
    await context.close();
  }
}

/** The chat's texts in a tab once it shows all of `texts` (or after 20 s, as they are then). */
async function waitForTexts(page: Page, conversationId: number, texts: string[]): Promise<string[]> {
  const until = Date.now() + 20_000;
  for (;;) {
    const shown = await messageTexts(page, conversationId);
    if (texts.every((t) => shown.includes(t)) || Date.now() > until) return shown;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
