import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildServer } from '../../server/app';
import { testConfig } from '../../server/config';
import { type Store, sql } from '../../server/db/store';
import { DEMO_USERS } from '../../server/seed/demo';
import { generateBigGroup, generateConversations } from '../../server/seed/history';
import { call, TEST_PIN } from '../support/server';
import { bigGroupChange, loadList, oneChange, sessionStorage, userInBigGroup, userWithChats } from './engineList';
import { type Figure, figure, median, quantile, repeat } from './harness';
import type { Sizes } from './sizes';

/**
 * The server's calls over real HTTP with a big history against the same calls with a small one (issue 3),
 * and the big chats list in the server and the engine (issue 4). Ratios, so the verdict does not depend
 * on how busy the machine is.
 */

/** Times `n` calls after a warm-up; resolves with every call's ms. */
async function timeCalls(fn: () => Promise<unknown>, n: number): Promise<number[]> {
  for (let i = 0; i < Math.min(5, n); i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times;
}

/**
 * A figure and its baseline, each run the median of `calls` calls; the runs of the two alternate, so a
 * busy moment of the machine hits both.
 */
async function paired(
  sizes: Sizes,
  names: { benchmark: string; name: string; baseline: string; bound: number; note?: string },
  big: () => Promise<unknown>,
  small: () => Promise<unknown>,
  calls: number,
  per = 1,
  perBaseline = 1,
): Promise<Figure> {
  const all: number[] = [];
  const runs = await repeat(sizes.runs, async () => {
    const a = await timeCalls(big, calls);
    const b = await timeCalls(small, calls);
    all.push(...a);
    return { figure: median(a) / per, baseline: median(b) / perBaseline };
  });
  return figure({
    benchmark: names.benchmark,
    name: names.name,
    unit: 'ms',
    runs: runs.map((r) => r.figure),
    baseline: { name: names.baseline, runs: runs.map((r) => r.baseline) },
    target: { of: 'ratio', op: '<=', bound: names.bound },
    note: `${names.note ? names.note + '; ' : ''}p95 of the figure's calls ${(quantile(all, 0.95) / per).toPrecision(3)} ms`,
  });
}

async function signIn(base: string, phone: string): Promise<string> {
  await call(base, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
  return (await call<{ token: string }>(base, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } }))
    .data.token;
}

const userIdOf = async (db: Store, phone: string) =>
  (await db.get<{ id: number }>(sql`SELECT id FROM users WHERE phone_nr = ${phone}`))!.id;

const chatsOf = async (db: Store, userId: number) =>
  (await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM conversation_members WHERE user_id = ${userId}`))!.n;

/** A message id from the middle of a conversation's history. */
async function middle(db: Store, id: number): Promise<number> {
  const count = (await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${id}`))!.n;
  return (await db.get<{ id: number }>(
    sql`SELECT id FROM messages WHERE conversation_id = ${id} ORDER BY id LIMIT 1 OFFSET ${Math.floor(count / 2)}`,
  ))!.id;
}

/** A reference server with the demo world on a temporary data directory, for the length of `run`. */
async function withServer<T>(run: (base: string, db: Store) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-bench-'));
  const server = await buildServer(testConfig(dataDir, { seedDemo: true }), { logStream: false });
  try {
    return await run(await server.listen(), server.ctx.db);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function serverBench(sizes: Sizes, log: (line: string) => void): Promise<Figure[]> {
  return withServer(async (base, db) => {
    const figures: Figure[] = [];
    const now = Date.now();
    const userId = await userIdOf(db, DEMO_USERS[0].phone);
    const friendId = await userIdOf(db, DEMO_USERS[1].phone);
    // Issue 24: the pages of a 1,000,000-message group against a 1,000-message one, made by the seed's generator.
    const t0 = performance.now();
    const big = await generateBigGroup(db, userId, sizes.millionGroup, now);
    const bigSeconds = (performance.now() - t0) / 1000;
    const smallCount = Math.min(1_000, sizes.millionGroup);
    const t1 = performance.now();
    const small = await generateBigGroup(db, userId, smallCount, now);
    const smallSeconds = (performance.now() - t1) / 1000;
    const t2 = performance.now();
    await generateConversations(db, userId, Math.min(2_000, sizes.listChats), now);
    log(
      `server: generated ${sizes.millionGroup} messages in ${bigSeconds.toFixed(1)} s, ${smallCount} in ${smallSeconds.toFixed(2)} s, ` +
        `2,000 chats in ${((performance.now() - t2) / 1000).toFixed(1)} s`,
    );
    const token = await signIn(base, DEMO_USERS[0].phone);
    const friend = await signIn(base, DEMO_USERS[1].phone);
    const page = (id: number, before?: number) =>
      call(base, 'GET', `/v2/conversations/${id}/messages`, {
        token,
        headers: before ? { 'Message-Count': '20', Before: String(before) } : { 'Message-Count': '20' },
      }).then((r) => r.data);
    const calls = Math.max(3, Math.ceil(sizes.serverRounds / sizes.runs));
    const benchmark = 'server';
    const bigName = `${sizes.millionGroup}-message group`;
    const smallName = `${smallCount}-message group`;
    figures.push(
      figure({
        benchmark,
        name: `generating the ${bigName} (server/seed/history.ts, as npm run seed)`,
        unit: 's',
        runs: [bigSeconds],
        baseline: { name: `the same, ${smallName}`, runs: [smallSeconds] },
        note: 'once, into the benchmark server\'s SQLite (synchronous=FULL): 5,000 messages a transaction, 128 rows an INSERT',
      }),
    );
    figures.push(
      await paired(
        sizes,
        { benchmark, name: `latest page, ${bigName}`, baseline: `the same, ${smallName}`, bound: 3 },
        () => page(big.conversationId),
        () => page(small.conversationId),
        calls,
      ),
    );
    const bigMiddle = await middle(db, big.conversationId);
    const smallMiddle = await middle(db, small.conversationId);
    figures.push(
      await paired(
        sizes,
        { benchmark, name: `older page (Before) mid-history, ${bigName}`, baseline: `the same, ${smallName}`, bound: 3 },
        () => page(big.conversationId, bigMiddle),
        () => page(small.conversationId, smallMiddle),
        calls,
      ),
    );
    figures.push(
      await paired(
        sizes,
        {
          benchmark,
          name: `open conversation (GET /v2/conversations/{id}), ${bigName}`,
          baseline: `the same, ${smallName}`,
          // Both groups leave the reader the same 20 unread: nothing in the answer grows with the history.
          bound: 3,
        },
        () => call(base, 'GET', `/v2/conversations/${big.conversationId}`, { token }).then((r) => r.data),
        () => call(base, 'GET', `/v2/conversations/${small.conversationId}`, { token }).then((r) => r.data),
        calls,
      ),
    );
    const list = (t: string) => call(base, 'GET', '/v2/conversations', { token: t }).then((r) => r.data);
    const manyCount = await chatsOf(db, userId);
    const fewCount = await chatsOf(db, friendId);
    // A 2,000-chat list takes about a second a call: two calls a run.
    figures.push(
      await paired(
        sizes,
        {
          benchmark,
          name: `conversation list, ${manyCount} chats (per chat)`,
          baseline: `the same, a user with ${fewCount} chats (per chat)`,
          bound: 3,
        },
        () => list(token),
        () => list(friend),
        2,
        manyCount,
        fewCount,
      ),
    );

    return figures;
  });
}

/** Issue 4: the big list, in the server and in the engine, per chat against a small list. */
export async function listBench(sizes: Sizes): Promise<Figure[]> {
  return withServer(async (base, db) => {
    const figures: Figure[] = [];
    const bigList = await userWithChats(base, db, sizes.listChats);
    const smallList = await userWithChats(base, db, sizes.listBaselineChats);
    const listAnswer = (t: string) => call(base, 'GET', '/v2/conversations', { token: t, headers: { 'Message-Count': '1' } });
    figures.push(
      await paired(
        sizes,
        {
          benchmark: 'list',
          name: `conversation list answer, ${sizes.listChats} chats (per chat)`,
          baseline: `the same, ${sizes.listBaselineChats} chats (per chat)`,
          bound: 1.5,
        },
        () => listAnswer(bigList.token),
        () => listAnswer(smallList.token),
        1,
        sizes.listChats,
        sizes.listBaselineChats,
      ),
    );
    const bigSession = await sessionStorage(base, bigList);
    const smallSession = await sessionStorage(base, smallList);
    await loadList(base, bigList, bigSession);
    await loadList(base, smallList, smallSession);
    const loads = await repeat(sizes.runs, async () => {
      const bigLoad = await loadList(base, bigList, bigSession);
      // The small list loads fast: the median of a few is one run's figure.
      const smallLoads = await repeat(3, () => loadList(base, smallList, smallSession));
      return { big: bigLoad, small: median(smallLoads.map((l) => l.ms)) };
    });
    figures.push(
      figure({
        benchmark: 'list',
        name: `engine: refresh to the full list in the tab, ${sizes.listChats} chats (per chat)`,
        unit: 'ms',
        runs: loads.map((l) => l.big.ms / sizes.listChats),
        baseline: { name: `the same, ${sizes.listBaselineChats} chats (per chat)`, runs: loads.map((l) => l.small / sizes.listBaselineChats) },
        target: { of: 'ratio', op: '<=', bound: 1.5 },
        note: 'a fresh engine (a reload with nothing cached but the session) through the stream bridge and a structured clone',
      }),
    );
    const loadBytes = Math.max(...loads.map((l) => l.big.bytes));
    figures.push(
      figure({
        benchmark: 'list',
        name: `list values crossing to the tab per load, ${sizes.listChats} chats`,
        unit: '',
        runs: loads.map((l) => l.big.emissions),
        target: { of: 'value', op: '<=', bound: 1 },
        note: `${(loadBytes / 1e6).toFixed(2)} MB cloned for the load`,
      }),
    );
    const changes = await repeat(Math.min(sizes.runs, 3), () => oneChange(base, bigList, bigSession));
    figures.push(
      figure({
        benchmark: 'list',
        name: `bytes crossing for a change of one chat, ${sizes.listChats}-chat list`,
        unit: 'B',
        runs: changes.map((c) => c.changeBytes),
        baseline: { name: 'the bytes of the whole list', runs: changes.map((c) => c.fullBytes) },
        target: { of: 'ratio', op: '<=', bound: 0.01 },
      }),
    );
    // A message in a 500-member group (the most the server lists) re-sends the group's list row to every
    // tab: without its member list it stays small.
    const member = await userInBigGroup(base, db, 500);
    const memberSession = await sessionStorage(base, member);
    const groups = await repeat(Math.min(sizes.runs, 3), () => bigGroupChange(base, member, memberSession));
    figures.push(
      figure({
        benchmark: 'list',
        name: 'bytes crossing to the chats list for a message in a 500-member group',
        unit: 'B',
        runs: groups.map((g) => g.rowBytes),
        baseline: { name: 'the group with its member list (what conversation(id) carries)', runs: groups.map((g) => g.conversationBytes) },
        target: { of: 'value', op: '<=', bound: 8_000 },
      }),
    );
    return figures;
  });
}
