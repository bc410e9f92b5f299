import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, buildServer } from '../../server/app';
import { testConfig } from '../../server/config';
import { sql } from '../../server/db/store';
import type { BusNote, EventBus } from '../../server/realtime/bus';
import { EventLog } from '../../server/realtime/events';
import { testDatabaseUrl } from '../support/postgresSchema';
import { signUp, TestSocket, type TestUser } from '../support/server';

/**
 * Issue 21: what a node sends one socket when other nodes' notes come late, out of order or not at all.
 * The bus is swapped through its interface for one the test plays; the other node is a second event log on
 * the same database, which stores events without delivering them, as another process would.
 */

/** A bus the test drives: what this node publishes is kept, and notes "from other nodes" are handed in by hand. */
class PlayedBus implements EventBus {
  readonly shared = true;
  readonly published: BusNote[] = [];
  private handler: ((note: BusNote) => void) | undefined;
  private reconnected: (() => void) | undefined;

  publish(note: BusNote): void {
    this.published.push(note);
  }
  onNote(handler: (note: BusNote) => void): void {
    this.handler = handler;
  }
  onReconnect(handler: () => void): void {
    this.reconnected = handler;
  }
  async check(): Promise<void> {}
  async close(): Promise<void> {}

  hear(note: BusNote): void {
    this.handler?.(note);
  }
  comeBack(): void {
    this.reconnected?.();
  }
}

const SWEEP_MS = 60_000;
const bus = new PlayedBus();
let server: BuiltServer;
let base: string;
let dataDir: string;
let otherNode: EventLog;
let bo: TestUser;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-hub-order-'));
  // A sweep that never comes during the test: only notes (and the reconnect) deliver what the other node stored.
  // PostgreSQL under the server-postgres project (a schema of its own), SQLite otherwise.
  const databaseUrl = await testDatabaseUrl(dataDir);
  const config = testConfig(dataDir, { busSweepMs: SWEEP_MS, ...(databaseUrl ? { databaseUrl } : {}) });
  server = await buildServer(config, { logStream: false, bus });
  base = await server.listen();
  otherNode = await EventLog.open(server.ctx.db, 1_000, () => Date.now());
  bo = await signUp(base, 'Bo');
});

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Stores an event for Bo as the other node would (no delivery here) and answers its id and data. */
async function storeElsewhere(text: string): Promise<{ seq: number; payload: string }> {
  const data = { conversation_id: 1, message_id: text.length, type: 'read' as const };
  await otherNode.emit([bo.id], 'self_dlr_sync', data);
  return { seq: await eventSeq(), payload: JSON.stringify(data) };
}

/** Bo's newest event id. */
const eventSeq = async () =>
  (await server.ctx.db.get<{ n: number }>(sql`SELECT seq AS n FROM event_counters WHERE user_id = ${bo.id}`))!.n;

const note = (event: { seq: number; payload: string }): BusNote => ({
  kind: 'events',
  events: [{ action: 'self_dlr_sync', payload: event.payload, users: [[bo.id, event.seq]] }],
});

/** This node's reads of the database for sockets' missed events so far, by reason (its metrics listener's /metrics). */
async function catchUps(): Promise<{ gap: number; sweep: number }> {
  const text = await (await fetch(`${server.metricsUrl}/metrics`)).text();
  const count = (reason: string) =>
    Number(new RegExp(`^messenger_catchup_reads_total\\{reason="${reason}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { gap: count('gap'), sweep: count('sweep') };
}

const eventIds = (socket: TestSocket) => socket.frames.flatMap((f) => ('id' in f && typeof f.id === 'number' ? [f.id] : []));
const settle = () => new Promise((r) => setTimeout(r, 150));

describe('one socket’s events from other nodes', () => {
  it('sends an early event only after the ones before it (from the database), never one twice, and what no note announced once the bus is back', async () => {
    const socket = new TestSocket(base, bo.token);
    await socket.loaded();
    const start = eventIds(socket).at(-1) ?? 0;
    const first = await storeElsewhere('one');
    const second = await storeElsewhere('two');

    // The second's note comes first: the first comes along, from the database, before it.
    bus.hear(note(second));
    await expect.poll(() => eventIds(socket)).toEqual([first.seq, second.seq]);
    expect(first.seq).toBe(start + 1);
    // The first's note, late: nothing is sent twice.
    bus.hear(note(first));
    await settle();
    expect(eventIds(socket)).toEqual([first.seq, second.seq]);

    // A third whose note is lost: the sweep after the bus comes back sends it.
    const third = await storeElsewhere('three');
    await settle();
    expect(eventIds(socket)).toEqual([first.seq, second.seq]);
    bus.comeBack();
    await expect.poll(() => eventIds(socket)).toEqual([first.seq, second.seq, third.seq]);
    socket.close();
  });

  it('publishes what this node stores, once per event with every receiver', async () => {
    bus.published.length = 0;
    const before = await eventSeq();
    await server.ctx.events.emit([bo.id], 'self_dlr_sync', { conversation_id: 1, message_id: 9, type: 'read' });
    expect(bus.published).toEqual([
      { kind: 'events', events: [{ action: 'self_dlr_sync', payload: expect.any(String), users: [[bo.id, before + 1]] }] },
    ]);
  });

  it('holds an event that overtook the one before it until that one’s note comes, and reads nothing', async () => {
    const socket = new TestSocket(base, bo.token);
    await socket.loaded();
    const reads = await catchUps();
    const first = await storeElsewhere('four');
    const second = await storeElsewhere('five');
    bus.hear(note(second));
    // Well inside the hold: nothing went, and nothing was read for it.
    await new Promise((r) => setTimeout(r, 60));
    expect(eventIds(socket)).toEqual([]);
    bus.hear(note(first));
    await expect.poll(() => eventIds(socket)).toEqual([first.seq, second.seq]);
    await settle();
    expect(eventIds(socket)).toEqual([first.seq, second.seq]);
    expect(await catchUps()).toEqual(reads);
    socket.close();
  });

  it('lets a timed sweep read only what was stored before the sweep before it', async () => {
    const socket = new TestSocket(base, bo.token);
    await socket.loaded();
    const reads = await catchUps();
    // Stored with its note still on the way: this turn of the sweep leaves it to the note.
    const first = await storeElsewhere('six');
    await server.hub.sweep();
    await settle();
    expect(eventIds(socket)).toEqual([]);
    expect(await catchUps()).toEqual(reads);
    bus.hear(note(first));
    await expect.poll(() => eventIds(socket)).toEqual([first.seq]);
    // Its note lost: the next turn leaves it too, the one after sends it, with one read.
    const second = await storeElsewhere('seven');
    await server.hub.sweep();
    await settle();
    expect(eventIds(socket)).toEqual([first.seq]);
    await server.hub.sweep();
    await expect.poll(() => eventIds(socket)).toEqual([first.seq, second.seq]);
    expect(await catchUps()).toEqual({ ...reads, sweep: reads.sweep + 1 });
    socket.close();
  });
});
