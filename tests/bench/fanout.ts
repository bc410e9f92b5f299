import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { openStore } from '../../server/db/open';
import { sql } from '../../server/db/store';
import { newToken } from '../../server/http/auth';
import { insertSession } from '../../server/domain/sessions';
import { newStid } from '../../server/domain/ids';
import { PostgresProcess, postgresBinDir } from '../../scripts/cluster/postgres';
import { RedisProcess } from '../../scripts/cluster/processes';
import { insertConversation } from '../support/fixtures';
import { call } from '../support/server';
import { sleep } from './app';
import { type Figure, figure, quantile } from './harness';
import type { Sizes } from './sizes';

/**
 * Issue 11: the server's websocket fan-out. The reference server runs in a child process (fanoutServer.ts);
 * `fanoutClients` websocket clients (`ws`, in this process, on loopback) are split into `fanoutGroups`
 * groups, and `fanoutRate` messages a second go to the groups in turn over real HTTP for `fanoutSeconds`.
 * Latency is from just before a message's POST to its frame arriving at a client, over every (message,
 * client) pair. The load is cut into five windows of equal length: each figure is the median of the
 * windows'. Lost: pairs that never arrived. CPU and memory are the server process's, from /proc. Baseline:
 * the same message rate to a tenth of the clients (groups a tenth the size), in a server of its own.
 */

const WINDOWS = 5;
/** The benchmark's message text in a frame, as JSON writes it: `"message":"fanout <seq> <sent at>"`. */
const TEXT = /"message":"fanout (\d+) ([\d.]+)"/;
const CLOCK_TICKS = 100;

interface Load {
  clients: number;
  messages: number;
  /** Per window: p50 and p99 latency in ms. */
  p50: number[];
  p99: number[];
  /** (message, client) pairs that never arrived, and ones that arrived twice. */
  lost: number;
  duplicated: number;
  /** Sends the server refused or failed. */
  failedSends: number;
  /** The server's CPU over the load, in % of one core, and its memory (resident set) in MB (with several nodes: the busiest's). */
  cpuPercent: number;
  /** Each node's CPU over the load, and how long its event loop waited for a CPU, in % of the load. */
  nodeCpuPercent: number[];
  nodeWaitPercent: number[];
  /** Time the server's and the benchmark's event loops waited for a CPU, in % of the load's duration. */
  /** The server's CPU time per message sent, in ms: less bent by a busy machine than a share of a core. */
  cpuMsPerMessage: number;
  serverWaitPercent: number;
  clientWaitPercent: number;
  rssMB: number;
  peakRssMB: number;
  /** Reads of the database for sockets' missed events, all nodes together, by reason (issue 21's hub metric). */
  catchUps: { gap: number; sweep: number };
  /** Database statements of all nodes and their mean time as the nodes saw it (a loaded node reads its answer late). */
  statements: number;
  statementMs: number;
}

interface NodeCounts {
  gap: number;
  sweep: number;
  statements: number;
  statementSeconds: number;
}

/** A node's catch-up reads and database statements so far, from its metrics listener's /metrics. */
async function nodeCounts(url: string): Promise<NodeCounts> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const sum = (pattern: string) => {
    let total = 0;
    for (const m of text.matchAll(new RegExp(`^${pattern} ([\\d.e+-]+)$`, 'gm'))) total += Number(m[1]);
    return total;
  };
  return {
    gap: sum('messenger_catchup_reads_total\\{reason="gap"\\}'),
    sweep: sum('messenger_catchup_reads_total\\{reason="sweep"\\}'),
    statements: sum('messenger_database_statement_seconds_count\\{[^}]*\\}'),
    statementSeconds: sum('messenger_database_statement_seconds_sum\\{[^}]*\\}'),
  };
}

interface Seeded {
  /** Per group: the sender's token and the receivers' tokens. */
  groups: { conversationId: number; sender: string; receivers: string[] }[];
}

/** Users, tokens and groups, straight into a new database (signing a thousand users up would take minutes). */
async function seed(dataDir: string, databaseUrl: string | undefined, clients: number, groups: number): Promise<Seeded> {
  const { store: db } = await openStore({ dataDir, databaseUrl });
  try {
    const now = Date.now();
    let n = 0;
    const user = async (nickname: string): Promise<{ id: number; token: string }> => {
      n += 1;
      const phone = `+4677${String(n).padStart(7, '0')}`;
      const row = await db.get<{ id: number }>(
        sql`INSERT INTO users (stid, phone_nr, country_code, nickname, created_at)
            VALUES (${newStid('u')}, ${phone}, '46', ${nickname}, ${now}) RETURNING id`,
      );
      const id = row!.id;
      const token = newToken();
      await insertSession(db, { token, userId: id, now });
      return { id, token };
    };
    return await db.transaction(async () => {
      const result: Seeded = { groups: [] };
      for (let g = 0; g < groups; g++) {
        const sender = await user(`Sender ${g}`);
        const receivers: { id: number; token: string }[] = [];
        for (let i = 0; i < Math.floor(clients / groups); i++) receivers.push(await user(`Reader ${g}.${i}`));
        const { id } = await insertConversation(db, { members: [sender.id, ...receivers.map((r) => r.id)], name: `Fan-out ${g}`, isGroup: true, now });
        result.groups.push({ conversationId: id, sender: sender.token, receivers: receivers.map((r) => r.token) });
      }
      return result;
    });
  } finally {
    await db.close();
  }
}

/**
 * utime + stime of a process, in clock ticks, its resident memory now and at its peak, in kB, and how long
 * its main thread (the event loop) has waited on the run queue for a CPU, in ns: on a busy shared machine
 * that wait, not the server's own work, can be what delays the frames.
 */
function processUsage(pid: number): { ticks: number; rssKb: number; peakKb: number; runQueueNs: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
  const runQueueNs = Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
  return { ticks, rssKb: kb('VmRSS'), peakKb: kb('VmHWM'), runQueueNs };
}

async function startServer(
  dataDir: string,
  node?: { redisUrl: string; nodeId: string; databaseUrl: string | undefined },
): Promise<{ url: string; metricsUrl: string; pid: number; stop(): Promise<void> }> {
  const args = node ? [dataDir, node.redisUrl, node.nodeId, ...(node.databaseUrl ? [node.databaseUrl] : [])] : [dataDir];
  const child = fork(path.join(import.meta.dirname, 'fanoutServer.ts'), args, {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_FANOUT_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_FANOUT_PROFILE}`] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { url, metricsUrl } = await new Promise<{ url: string; metricsUrl: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { url: string; metricsUrl: string }));
    child.once('exit', (code) => reject(new Error(`the fan-out server exited with ${code}`)));
  });
  return {
    url,
    metricsUrl,
    pid: child.pid as number,
    async stop() {
      child.send('stop');
      await Promise.race([exited, sleep(5_000).then(() => child.kill())]);
    },
  };
}

/** Opens the clients' websockets, `batch` at a time, each until the server says it is loaded; client i on urls[i % n]. */
/** How every conversation_message frame's text begins (server/realtime/events.ts frameText). */
const MESSAGE_FRAME = '{"action":"conversation_message",';

async function connectAll(urls: string[], tokens: string[], onMessage: (text: string) => void): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  const open = (token: string, index: number) =>
    new Promise<WebSocket>((resolve, reject) => {
      const url = urls[index % urls.length] as string;
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}&last_message_id=0&protocol=7&deviceType=webclient`);
      ws.once('error', reject);
      ws.on('message', (raw) => {
        const text = raw.toString();
        // The thousand clients share one process and two cores with the servers: a message frame is matched
        // as text, not parsed (what the frames cost the clients is not what is measured).
        if (text.startsWith(MESSAGE_FRAME)) return onMessage(text);
        const frame = JSON.parse(text) as { action: string };
        if (frame.action === 'ping') ws.send('{"action":"pong"}');
        else if (frame.action === 'socket_loaded') resolve(ws);
      });
    });
  const batch = 50;
  for (let i = 0; i < tokens.length; i += batch) {
    sockets.push(...(await Promise.all(tokens.slice(i, i + batch).map((token, j) => open(token, i + j)))));
  }
  return sockets;
}

/**
 * One load. With `nodes` above 1 the server is that many processes sharing the data directory and a Redis
 * of their own (issue 21); client i connects to node i % nodes, and message i is sent through node i % nodes,
 * straight to the nodes (a proxy in front would add its own CPU to a two-core machine's).
 */
async function runLoad(clients: number, groupCount: number, rate: number, seconds: number, nodes = 1): Promise<Load> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-fanout-'));
  // Several nodes share a PostgreSQL (Debian's, durable settings) when it is installed, else the SQLite file.
  const postgres = nodes > 1 && postgresBinDir() ? await PostgresProcess.start() : undefined;
  const seeded = await seed(dataDir, postgres?.url, clients, groupCount);
  const redis = nodes > 1 ? await RedisProcess.start() : undefined;
  const servers = await Promise.all(
    Array.from({ length: nodes }, (_, i) =>
      startServer(dataDir, redis ? { redisUrl: redis.url, nodeId: `n${i + 1}`, databaseUrl: postgres?.url } : undefined),
    ),
  );
  const urls = servers.map((s) => s.url);
  const total = Math.max(WINDOWS, Math.round(rate * seconds));
  const received = new Uint16Array(total);
  const windows: number[][] = Array.from({ length: WINDOWS }, () => []);
  const windowOf = (seq: number) => Math.min(WINDOWS - 1, Math.floor((seq * WINDOWS) / total));
  let sockets: WebSocket[] = [];
  try {
    sockets = await connectAll(
      urls,
      seeded.groups.flatMap((g) => g.receivers),
      (text) => {
        const match = TEXT.exec(text);
        if (!match) return;
        const seq = Number(match[1]);
        received[seq] = (received[seq] ?? 0) + 1;
        (windows[windowOf(seq)] as number[]).push(performance.now() - Number(match[2]));
      },
    );
    // The presence of a thousand arrivals settles before the load starts.
    await sleep(1_000);
    let failedSends = 0;
    // Why sends failed, each reason once: a benchmark that only counts them hides whose fault they were.
    const failures = new Set<string>();
    const sends: Promise<void>[] = [];
    const before = servers.map((s) => processUsage(s.pid));
    const clientBefore = processUsage(process.pid);
    const t0 = performance.now();
    for (let seq = 0; seq < total; seq++) {
      const due = t0 + (seq * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const group = seeded.groups[seq % seeded.groups.length] as Seeded['groups'][number];
      sends.push(
        call(urls[seq % urls.length] as string, 'POST', `/v2/conversations/${group.conversationId}/messages`, {
          token: group.sender,
          json: { message: `fanout ${seq} ${performance.now().toFixed(3)}`, client_id: 1 + (seq % 9999) },
        }).then(
          (r) => {
            if (r.status < 300) return;
            failedSends += 1;
            failures.add(`${r.status} ${r.body.success ? '' : r.body.message}`);
          },
          (error: unknown) => {
            failedSends += 1;
            failures.add(String((error as { cause?: unknown }).cause ?? error));
          },
        ),
      );
    }
    await Promise.all(sends);
    if (failures.size > 0) console.warn(`fan-out: sends failed: ${[...failures].slice(0, 5).join('; ')}`);
    const loadSeconds = (performance.now() - t0) / 1000;
    const after = servers.map((s) => processUsage(s.pid));
    const clientAfter = processUsage(process.pid);
    const counts = await Promise.all(servers.map((s) => nodeCounts(s.metricsUrl)));
    const summed = (key: keyof NodeCounts) => counts.reduce((n, c) => n + c[key], 0);
    const waitPercent = (a: number, b: number) => ((b - a) / 1e9 / loadSeconds) * 100;
    // Frames still on their way get a moment to arrive.
    const perMessage = Math.floor(clients / groupCount);
    const drainEnd = performance.now() + 5_000;
    while (received.some((n) => n < perMessage) && performance.now() < drainEnd) await sleep(100);
    let lost = 0;
    let duplicated = 0;
    for (const n of received) {
      lost += Math.max(0, perMessage - n);
      duplicated += Math.max(0, n - perMessage);
    }
    const nodeCpuPercent = servers.map((_, i) => (((after[i]?.ticks ?? 0) - (before[i]?.ticks ?? 0)) / CLOCK_TICKS / loadSeconds) * 100);
    const nodeWaitPercent = servers.map((_, i) => waitPercent(before[i]?.runQueueNs ?? 0, after[i]?.runQueueNs ?? 0));
    const busiest = nodeCpuPercent.indexOf(Math.max(...nodeCpuPercent));
    const cpuTicks = servers.reduce((sum, _, i) => sum + ((after[i]?.ticks ?? 0) - (before[i]?.ticks ?? 0)), 0);
    return {
      clients: perMessage * groupCount,
      messages: total,
      p50: windows.map((w) => quantile(w, 0.5)),
      p99: windows.map((w) => quantile(w, 0.99)),
      lost,
      duplicated,
      failedSends,
      cpuPercent: nodeCpuPercent[busiest] ?? 0,
      nodeCpuPercent,
      nodeWaitPercent,
      // All nodes together: the cluster's cost of a message.
      cpuMsPerMessage: (cpuTicks * (1000 / CLOCK_TICKS)) / total,
      serverWaitPercent: Math.max(...nodeWaitPercent),
      clientWaitPercent: waitPercent(clientBefore.runQueueNs, clientAfter.runQueueNs),
      rssMB: (after[busiest]?.rssKb ?? 0) / 1024,
      peakRssMB: (after[busiest]?.peakKb ?? 0) / 1024,
      catchUps: { gap: summed('gap'), sweep: summed('sweep') },
      statements: summed('statements'),
      statementMs: (summed('statementSeconds') * 1000) / Math.max(1, summed('statements')),
    };
  } finally {
    for (const ws of sockets) ws.terminate();
    await Promise.all(servers.map((s) => s.stop()));
    await redis?.stop();
    await postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function fanoutBench(sizes: Sizes, log: (line: string) => void): Promise<Figure[]> {
  const { fanoutClients: clients, fanoutGroups: groups, fanoutRate: rate, fanoutSeconds: seconds } = sizes;
  const baselineClients = Math.max(groups, Math.round(clients / 10));
  const base = await runLoad(baselineClients, groups, rate, Math.max(1, seconds / 3));
  const load = await runLoad(clients, groups, rate, seconds);
  log(
    `fan-out: ${load.messages} messages to ${load.clients} clients; ${load.failedSends} sends failed; CPU ${load.cpuPercent.toFixed(0)} % (${load.cpuMsPerMessage.toFixed(2)} ms a message); ` +
      `waiting for a CPU: server ${load.serverWaitPercent.toFixed(0)} %, clients ${load.clientWaitPercent.toFixed(0)} % of the load`,
  );
  const shape = `${clients} clients in ${groups} groups of ${Math.floor(clients / groups)}, ${rate} messages/s for ${seconds} s`;
  const baseline = `${base.clients} clients in ${groups} groups of ${Math.floor(base.clients / groups)}, the same rate`;
  const benchmark = 'fan-out';
  return [
    figure({
      benchmark,
      name: `p50 delivery latency, ${shape}`,
      unit: 'ms',
      runs: load.p50,
      baseline: { name: baseline, runs: base.p50 },
      note: `POST to frame at the client, every (message, client) pair; median of ${WINDOWS} windows of the load`,
    }),
    figure({
      benchmark,
      name: `p99 delivery latency, ${clients} clients`,
      unit: 'ms',
      runs: load.p99,
      baseline: { name: baseline, runs: base.p99 },
      target: { of: 'value', op: '<=', bound: 100 },
      note: `the server's event loop waited for a CPU ${load.serverWaitPercent.toFixed(0)} % of the load, the clients' ${load.clientWaitPercent.toFixed(0)} % (/proc schedstat; the baseline's ${base.serverWaitPercent.toFixed(0)} and ${base.clientWaitPercent.toFixed(0)} %)`,
    }),
    figure({
      benchmark,
      name: `messages lost, ${clients} clients`,
      unit: '',
      // A failed send's pairs never arrive, so they are counted in `lost` already.
      runs: [load.lost],
      baseline: { name: baseline, runs: [base.lost] },
      target: { of: 'value', op: '<=', bound: 0 },
      note: `(message, client) pairs that never arrived, of ${load.messages * Math.floor(clients / groups)}; ${load.duplicated} arrived twice; ${load.failedSends} sends failed`,
    }),
    figure({
      benchmark,
      name: `server CPU during the load, ${clients} clients`,
      unit: '%',
      runs: [load.cpuPercent],
      baseline: { name: baseline, runs: [base.cpuPercent] },
      note: `user + system time of the server process over the load, in % of one core (/proc); ${load.cpuMsPerMessage.toFixed(2)} ms a message (baseline ${base.cpuMsPerMessage.toFixed(2)})`,
    }),
    figure({
      benchmark,
      name: `server memory (resident) after the load, ${clients} clients`,
      unit: 'MB',
      runs: [load.rssMB],
      baseline: { name: baseline, runs: [base.rssMB] },
      note: `peak ${load.peakRssMB.toFixed(0)} MB (/proc VmHWM)`,
    }),
  ];
}

/**
 * Issue 21: the same fan-out on three nodes sharing a database and Redis, beside one node in the same run
 * (the same clients and rate), then three times the clients on the three. A two-core machine starves five
 * processes (three nodes, Redis, the clients), so the verdict is on loss and on the ratio to one node, and
 * the notes say how long each process waited for a CPU.
 */
export async function fanoutClusterBench(sizes: Sizes, log: (line: string) => void): Promise<Figure[]> {
  const { fanoutClients: clients, fanoutGroups: groups, fanoutRate: rate, fanoutSeconds: seconds } = sizes;
  const one = await runLoad(clients, groups, rate, seconds, 1);
  const three = await runLoad(clients, groups, rate, seconds, 3);
  const big = await runLoad(3 * clients, groups, rate, seconds, 3);
  const nodesText = (load: Load) =>
    load.nodeCpuPercent.map((cpu, i) => `node ${i + 1} CPU ${cpu.toFixed(0)} %, waited ${(load.nodeWaitPercent[i] ?? 0).toFixed(0)} %`).join('; ');
  for (const [name, load] of [['one node', one], ['three nodes', three], [`three nodes, ${3 * clients} clients`, big]] as const) {
    log(
      `fan-out-cluster: ${name}: ${load.messages} messages to ${load.clients} clients, ${load.lost} lost, ${load.failedSends} sends failed; ${nodesText(load)}; clients waited ${load.clientWaitPercent.toFixed(0)} %; ` +
        `catch-up reads: ${load.catchUps.gap} for a late note, ${load.catchUps.sweep} by the sweep; ` +
        `${load.statements} database statements, ${load.statementMs.toFixed(1)} ms each on average as the nodes saw them`,
    );
  }
  const benchmark = 'fan-out-cluster';
  const baseline = `one node, the same ${clients} clients and rate`;
  const shape = `${clients} clients, ${rate} messages/s for ${seconds} s`;
  return [
    figure({
      benchmark,
      name: `messages lost on three nodes, ${clients} clients`,
      unit: '',
      runs: [three.lost],
      baseline: { name: baseline, runs: [one.lost] },
      target: { of: 'value', op: '<=', bound: 0 },
      note: `(message, client) pairs that never arrived, of ${three.messages * Math.floor(clients / groups)}; ${three.duplicated} arrived twice; ${three.failedSends} sends failed`,
    }),
    figure({
      benchmark,
      name: `p50 delivery latency on three nodes, ${shape}`,
      unit: 'ms',
      runs: three.p50,
      baseline: { name: baseline, runs: one.p50 },
      note: 'clients and sends spread over the nodes round robin; a message reaches the other nodes as a Redis note and is read from the database there',
    }),
    figure({
      benchmark,
      name: `p99 delivery latency on three nodes, ${clients} clients`,
      unit: 'ms',
      runs: three.p99,
      baseline: { name: baseline, runs: one.p99 },
      target: { of: 'ratio', op: '<=', bound: 3 },
      note: `${nodesText(three)}; one node: CPU ${one.cpuPercent.toFixed(0)} %, waited ${one.serverWaitPercent.toFixed(0)} %; clients waited ${three.clientWaitPercent.toFixed(0)} % (/proc schedstat)`,
    }),
    figure({
      benchmark,
      name: `CPU of the busiest of three nodes, ${clients} clients`,
      unit: '%',
      runs: [three.cpuPercent],
      baseline: { name: baseline, runs: [one.cpuPercent] },
      note: `${nodesText(three)}; all three together ${three.cpuMsPerMessage.toFixed(2)} ms a message, one node ${one.cpuMsPerMessage.toFixed(2)}`,
    }),
    figure({
      benchmark,
      name: `messages lost on three nodes, ${3 * clients} clients`,
      unit: '',
      runs: [big.lost],
      baseline: { name: `three nodes, ${clients} clients`, runs: [three.lost] },
      target: { of: 'value', op: '<=', bound: 0 },
      note: `of ${big.messages * Math.floor((3 * clients) / groups)} pairs; ${big.duplicated} arrived twice; ${big.failedSends} sends failed`,
    }),
    figure({
      benchmark,
      name: `p99 delivery latency on three nodes, ${3 * clients} clients`,
      unit: 'ms',
      runs: big.p99,
      baseline: { name: `three nodes, ${clients} clients`, runs: three.p99 },
      note: `${nodesText(big)}; p50 ${quantile(big.p50, 0.5).toFixed(1)} ms; clients waited ${big.clientWaitPercent.toFixed(0)} %`,
    }),
  ];
}
