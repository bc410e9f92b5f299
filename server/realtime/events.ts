import type { EventAction, EventFrame, EventPayloads } from '../../src/protocol/socket';
import { performance } from 'node:perf_hooks';
import { AsyncLocalStorage } from 'node:async_hooks';
import { list, type Store, sql } from '../db/store';

export interface Delivery {
  userId: number;
  frame: EventFrame | { action: EventAction; data: unknown };
  /** The frame as sent, when the emitter already built it: one event's data is serialized once, not per receiver. */
  text?: string;
  /** When a replayable event was stored (performance.now()), for the delivery latency metric; none for presence. */
  storedAt?: number;
  /** A replayable event's data as JSON, one string shared by all its receivers (the other nodes get it once). */
  payload?: string;
}

/** An event frame's text from its parts: the same text JSON.stringify gives for the frame, key order included. */
export function frameText(action: string, seq: number, json: string): string {
  return `{"action":${JSON.stringify(action)},"id":${seq},"data":${json}}`;
}

/** Ids in one IN list, and event rows in one INSERT (5 parameters each): well under both stores' limits. */
const IDS_PER_STATEMENT = 500;
const EVENT_ROWS_PER_INSERT = 200;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface DeliveryTarget {
  deliver(deliveries: Delivery[]): void;
}

/**
 * The per-user event log behind the websocket (design.md §4). Every event that changes state gets the
 * user's next id and is written in the same transaction as the change it reports; frames go out only
 * after that transaction commits, and never when it rolls back.
 */
export class EventLog {
  /** The deliveries of the transaction the caller runs in: each transaction its own (several run at once). */
  private readonly pending = new AsyncLocalStorage<Delivery[]>();
  private target: DeliveryTarget | null = null;

  private constructor(
    private readonly db: Store,
    private readonly retention: number,
    private readonly now: () => number,
    private readonly onCommitted: (action: EventAction) => void,
    /** The random identity of this database (migration 3). */
    readonly epoch: string,
  ) {}

  static async open(
    db: Store,
    retention: number,
    now: () => number,
    /** Told of each receiver's event once its transaction committed (the events-stored metric). */
    onCommitted: (action: EventAction) => void = () => undefined,
  ): Promise<EventLog> {
    const row = await db.get<{ value: string }>(sql`SELECT value FROM server_meta WHERE key = 'epoch'`);
    return new EventLog(db, retention, now, onCommitted, row?.value ?? '');
  }

  attach(target: DeliveryTarget): void {
    this.target = target;
  }

  /** Runs `fn` in one transaction; the events it emits are delivered only if it commits. */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.pending.getStore()) return fn();
    const deliveries: Delivery[] = [];
    const result = await this.db.transaction(() => {
      // A transaction the store runs again (a conflict on PostgreSQL) starts with nothing to deliver.
      deliveries.length = 0;
      return this.pending.run(deliveries, fn);
    });
    // Inside a transaction begun outside the log, delivery waits for that one's commit.
    this.db.afterCommit(() => {
      for (const d of deliveries) this.onCommitted(d.frame.action);
      if (deliveries.length > 0) this.target?.deliver(deliveries);
    });
    return result;
  }

  /**
   * Takes the event counters of `userIds` for the caller's transaction, in id order, before it emits to them
   * in some other order over several calls (PostgreSQL; SQLite's writers take turns anyway). Transactions that
   * take them in different orders would each hold one and wait on the other.
   */
  async lockUsers(userIds: Iterable<number>): Promise<void> {
    if (this.db.dialect !== 'postgres') return;
    const ids = [...new Set(userIds)].sort((a, b) => a - b);
    if (ids.length === 0) return;
    await this.db.all(sql`SELECT user_id FROM event_counters WHERE user_id IN ${list(ids)} ORDER BY user_id FOR UPDATE`);
  }

  /**
   * Records a replayable event for each user (duplicates folded) and queues its delivery. A few statements
   * for all receivers, not a few per receiver: on PostgreSQL a message to a 100-member group is one statement
   * (counters, payload and 100 rows), on SQLite three (issue 21: per-receiver round trips to PostgreSQL were
   * most of a group message's latency in the fan-out-cluster benchmark).
   */
  async emit<A extends EventAction>(userIds: Iterable<number>, action: A, data: EventPayloads[A]): Promise<void> {
    // In id order: two transactions that bump the same users' counters lock them in the same order
    // (PostgreSQL would otherwise find them deadlocked).
    const ids = [...new Set(userIds)].sort((a, b) => a - b);
    if (ids.length === 0) return;
    await this.transaction(async () => {
      const json = JSON.stringify(data);
      const now = this.now();
      const receivers = await this.store(ids, action, json, now);
      if (receivers.length === 0) return;
      await this.prune(receivers.filter((r) => r.seq > this.retention));
      const storedAt = performance.now();
      const pending = this.pending.getStore();
      for (const { userId, seq } of receivers) {
        const text = frameText(action, seq, json);
        pending?.push({ userId, frame: { action, id: seq, data } as EventFrame, text, storedAt, payload: json });
      }
    });
  }

  /**
   * Gives each receiver its next id and stores the event under it, the data once for all of them (each
   * receiver's row holds only its own id). Receivers that no longer exist are left out.
   */
  private async store(ids: readonly number[], action: EventAction, json: string, now: number): Promise<{ userId: number; seq: number }[]> {
    if (this.db.dialect === 'postgres') {
      // One statement, whatever the number of receivers: each statement here is a round trip the chat's next
      // send waits for (it holds the chat's lock), and a loaded node answers a round trip late (issue 21).
      // The ids go as one array, not a list of parameters, so the statement's text is always the same.
      // Counters are locked in id order (an UPDATE locks rows in the order it scans them, which `= ANY` does
      // not fix): two sends that share receivers then never wait on each other crosswise.
      const rows = await this.db.all<{ user_id: number; seq: number }>(
        sql`WITH bumped AS (
              UPDATE event_counters SET seq = seq + 1
              WHERE user_id IN (SELECT user_id FROM event_counters WHERE user_id = ANY(${ids}::bigint[]) ORDER BY user_id FOR UPDATE)
              RETURNING user_id, seq),
            payload AS (INSERT INTO event_payloads (data) SELECT ${json}::text WHERE EXISTS (SELECT 1 FROM bumped) RETURNING id),
            stored AS (
              INSERT INTO events (user_id, seq, action, payload_id, created_at)
              SELECT bumped.user_id, bumped.seq, ${action}::text, payload.id, ${now}::bigint FROM bumped CROSS JOIN payload)
            SELECT user_id, seq FROM bumped ORDER BY user_id`,
      );
      return rows.map((r) => ({ userId: r.user_id, seq: r.seq }));
    }
    const seqs = await this.bumpCounters(ids);
    if (seqs.size === 0) return [];
    const payload = await this.db.get<{ id: number }>(sql`INSERT INTO event_payloads (data) VALUES (${json}) RETURNING id`);
    const payloadId = payload?.id ?? null;
    const receivers = ids.filter((id) => seqs.has(id)).map((id) => ({ userId: id, seq: seqs.get(id) ?? 0 }));
    for (const chunk of chunks(receivers, EVENT_ROWS_PER_INSERT)) {
      const rows = chunk.map((r) => sql`(${r.userId}, ${r.seq}, ${action}, ${payloadId}, ${now})`);
      await this.db.run(sql`INSERT INTO events (user_id, seq, action, payload_id, created_at) VALUES ${sql.join(rows)}`);
    }
    return receivers;
  }

  /** Each user's next event id (users that no longer exist are left out), taken in one statement per chunk (SQLite). */
  private async bumpCounters(ids: readonly number[]): Promise<Map<number, number>> {
    const seqs = new Map<number, number>();
    for (const chunk of chunks(ids, IDS_PER_STATEMENT)) {
      const rows = await this.db.all<{ user_id: number; seq: number }>(
        sql`UPDATE event_counters SET seq = seq + 1 WHERE user_id IN ${list(chunk)} RETURNING user_id, seq`,
      );
      for (const r of rows) seqs.set(r.user_id, r.seq);
    }
    return seqs;
  }

  /** Drops the receivers' events older than the retention, and the payloads no event uses any more. */
  private async prune(receivers: readonly { userId: number; seq: number }[]): Promise<void> {
    const pruned = new Set<number>();
    for (const chunk of chunks(receivers, IDS_PER_STATEMENT / 2)) {
      const older = chunk.map((r) => sql`(user_id = ${r.userId} AND seq <= ${r.seq - this.retention})`);
      const rows = await this.db.all<{ payload_id: number }>(
        sql`DELETE FROM events WHERE ${sql.join(older, sql` OR `)} RETURNING payload_id`,
      );
      for (const r of rows) pruned.add(r.payload_id);
    }
    if (pruned.size === 0) return;
    // A payload goes when the last receiver's event that used it is pruned. On PostgreSQL its row is locked
    // first: two transactions pruning its last two events would each still see the other's and keep it; the
    // second one's check waits for the first to commit, and then sees both gone.
    for (const chunk of chunks([...pruned].sort((a, b) => a - b), IDS_PER_STATEMENT)) {
      if (this.db.dialect === 'postgres') {
        await this.db.all(sql`SELECT id FROM event_payloads WHERE id IN ${list(chunk)} ORDER BY id FOR UPDATE`);
      }
      await this.db.run(
        sql`DELETE FROM event_payloads WHERE id IN ${list(chunk)}
            AND NOT EXISTS (SELECT 1 FROM events WHERE events.payload_id = event_payloads.id)`,
      );
    }
  }

  /** An event with no id that is not stored: presence. */
  ephemeral<A extends EventAction>(userIds: Iterable<number>, action: A, data: EventPayloads[A]): void {
    const frame = { action, data } as EventFrame;
    // One frame for every receiver: serialised once, not per socket.
    const text = JSON.stringify(frame);
    const deliveries = [...new Set(userIds)].map((userId) => ({ userId, frame, text }));
    this.target?.deliver(deliveries);
  }

  /**
   * What a client that last saw `lastId` missed: the frames in order, or needSync when they are gone
   * (pruned, or the client's id is from a different database: larger than ours, or another epoch).
   * `lastId` 0 without an epoch is a fresh client (nothing to replay: it fetches the lists); 0 with this
   * database's epoch is a client that was told the position 0 and saw nothing since, so it gets
   * everything from the first event on (issue 14: a first connection's gap).
   */
  replay(
    userId: number,
    lastId: number,
    clientEpoch: string | null = null,
  ): Promise<{ needSync: boolean; frames: EventFrame[]; current: number }> {
    // One read snapshot: another node's commit cannot fall between the current id and the rows after it.
    return this.db.transaction(() => this.replayNow(userId, lastId, clientEpoch), { snapshot: true });
  }

  /** The stored events of a user after `afterSeq`, in order, each as the frame's text (for the hub's catch-up). */
  async since(userId: number, afterSeq: number): Promise<{ seq: number; text: string }[]> {
    const rows = await this.missed(userId, afterSeq);
    return rows.map((r) => ({ seq: r.seq, text: frameText(r.action, r.seq, r.data) }));
  }

  /** Each user's newest event id (the hub's sweep). */
  async currentSeqs(userIds: readonly number[]): Promise<[userId: number, seq: number][]> {
    const out: [number, number][] = [];
    for (let i = 0; i < userIds.length; i += 500) {
      const chunk = userIds.slice(i, i + 500);
      const rows = await this.db.all<{ user_id: number; seq: number }>(
        sql`SELECT user_id, seq FROM event_counters WHERE user_id IN ${list(chunk)}`,
      );
      for (const r of rows) out.push([r.user_id, r.seq]);
    }
    return out;
  }

  private missed(userId: number, afterSeq: number) {
    return this.db.all<{ seq: number; action: EventAction; data: string }>(
      sql`SELECT e.seq, e.action, p.data FROM events e JOIN event_payloads p ON p.id = e.payload_id
          WHERE e.user_id = ${userId} AND e.seq > ${afterSeq} ORDER BY e.seq`,
    );
  }

  private async replayNow(
    userId: number,
    lastId: number,
    clientEpoch: string | null,
  ): Promise<{ needSync: boolean; frames: EventFrame[]; current: number }> {
    const current =
      (await this.db.get<{ seq: number }>(sql`SELECT seq FROM event_counters WHERE user_id = ${userId}`))?.seq ?? 0;
    if (clientEpoch !== null && clientEpoch !== this.epoch) return { needSync: true, frames: [], current };
    if (lastId === 0 && clientEpoch === null) return { needSync: false, frames: [], current };
    if (lastId > current) return { needSync: true, frames: [], current };
    const oldest = (await this.db.get<{ s: number | null }>(sql`SELECT MIN(seq) AS s FROM events WHERE user_id = ${userId}`))
      ?.s;
    if (lastId < current && (oldest == null || oldest > lastId + 1)) return { needSync: true, frames: [], current };
    const rows = await this.missed(userId, lastId);
    const frames = rows.map((r) => ({ action: r.action, id: r.seq, data: JSON.parse(r.data) as unknown }) as EventFrame);
    return { needSync: false, frames, current };
  }
}
