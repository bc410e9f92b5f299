import type { EventAction, EventFrame, EventPayloads } from '../../src/protocol/socket';
import { performance } from 'node:perf_hooks';
import type { Db } from '../db/database';

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

export interface DeliveryTarget {
  deliver(deliveries: Delivery[]): void;
}

/**
 * The per-user event log behind the websocket (design.md §4). Every event that changes state gets the
 * user's next id and is written in the same transaction as the change it reports; frames go out only
 * after that transaction commits, and never when it rolls back.
 */
export class EventLog {
  private pending: Delivery[] | null = null;
  private target: DeliveryTarget | null = null;
  private readonly bumpSeq;
  private readonly insertPayload;
  private readonly insert;
  private readonly prune;
  private readonly dropPayload;
  private readonly currentSeq;
  private readonly oldestSeq;
  private readonly missed;

  constructor(
    private readonly db: Db,
    private readonly retention: number,
    private readonly now: () => number,
    /** Told of each receiver's event once its transaction committed (the events-stored metric). */
    private readonly onCommitted: (action: EventAction) => void = () => undefined,
  ) {
    this.bumpSeq = db.prepare<[number], { event_seq: number }>(
      'UPDATE users SET event_seq = event_seq + 1 WHERE id = ? RETURNING event_seq',
    );
    this.insertPayload = db.prepare('INSERT INTO event_payloads (data) VALUES (?)');
    this.insert = db.prepare('INSERT INTO events (user_id, seq, action, payload_id, created_at) VALUES (?, ?, ?, ?, ?)');
    this.prune = db.prepare<[number, number], { payload_id: number }>(
      'DELETE FROM events WHERE user_id = ? AND seq <= ? RETURNING payload_id',
    );
    this.dropPayload = db.prepare<[number, number]>(
      'DELETE FROM event_payloads WHERE id = ? AND NOT EXISTS (SELECT 1 FROM events WHERE payload_id = ?)',
    );
    this.currentSeq = db.prepare<[number], { event_seq: number }>('SELECT event_seq FROM users WHERE id = ?');
    this.oldestSeq = db.prepare<[number], { s: number | null }>('SELECT MIN(seq) AS s FROM events WHERE user_id = ?');
    this.missed = db.prepare<[number, number], { seq: number; action: EventAction; data: string }>(
      `SELECT e.seq, e.action, p.data FROM events e JOIN event_payloads p ON p.id = e.payload_id
       WHERE e.user_id = ? AND e.seq > ? ORDER BY e.seq`,
    );
    this.epoch =
      db.prepare<[], { value: string }>("SELECT value FROM server_meta WHERE key = 'epoch'").get()?.value ?? '';
  }

  attach(target: DeliveryTarget): void {
    this.target = target;
  }

  /** Runs `fn` in one transaction; the events it emits are delivered only if it commits. */
  transaction<T>(fn: () => T): T {
    if (this.pending) return fn();
    this.pending = [];
    try {
      const result = this.db.transaction(fn)();
      const deliveries = this.pending;
      this.pending = null;
      for (const d of deliveries) this.onCommitted(d.frame.action);
      this.target?.deliver(deliveries);
      return result;
    } catch (error) {
      this.pending = null;
      throw error;
    }
  }

  /** Records a replayable event for each user (duplicates folded) and queues its delivery. */
  emit<A extends EventAction>(userIds: Iterable<number>, action: A, data: EventPayloads[A]): void {
    this.transaction(() => {
      // The data is stored once for all its receivers; each receiver's row holds only its own id.
      const json = JSON.stringify(data);
      let payloadId: number | null = null;
      const pruned = new Set<number>();
      const now = this.now();
      const storedAt = performance.now();
      for (const userId of new Set(userIds)) {
        const row = this.bumpSeq.get(userId);
        if (!row) continue;
        const seq = row.event_seq;
        payloadId ??= Number(this.insertPayload.run(json).lastInsertRowid);
        this.insert.run(userId, seq, action, payloadId, now);
        if (seq > this.retention) for (const r of this.prune.all(userId, seq - this.retention)) pruned.add(r.payload_id);
        const text = frameText(action, seq, json);
        this.pending?.push({ userId, frame: { action, id: seq, data } as EventFrame, text, storedAt, payload: json });
      }
      // A payload goes when the last receiver's event that used it is pruned.
      for (const id of pruned) this.dropPayload.run(id, id);
    });
  }

  /** An event with no id that is not stored: presence. */
  ephemeral<A extends EventAction>(userIds: Iterable<number>, action: A, data: EventPayloads[A]): void {
    const frame = { action, data } as EventFrame;
    // One frame for every receiver: serialised once, not per socket.
    const text = JSON.stringify(frame);
    const deliveries = [...new Set(userIds)].map((userId) => ({ userId, frame, text }));
    this.target?.deliver(deliveries);
  }

  /** The random identity of this database (migration 3). */
  readonly epoch: string;

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
  ): { needSync: boolean; frames: EventFrame[]; current: number } {
    // One read transaction: another node's commit cannot fall between the current id and the rows after it.
    return this.db.transaction(() => this.replayNow(userId, lastId, clientEpoch))();
  }

  /** The stored events of a user after `afterSeq`, in order, each as the frame's text (for the hub's catch-up). */
  since(userId: number, afterSeq: number): { seq: number; text: string }[] {
    return this.missed.all(userId, afterSeq).map((r) => ({ seq: r.seq, text: frameText(r.action, r.seq, r.data) }));
  }

  /** Each user's newest event id (the hub's sweep). */
  currentSeqs(userIds: readonly number[]): [userId: number, seq: number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < userIds.length; i += 500) {
      const chunk = userIds.slice(i, i + 500);
      const rows = this.db
        .prepare<number[], { id: number; event_seq: number }>(
          `SELECT id, event_seq FROM users WHERE id IN (${chunk.map(() => '?').join(',')})`,
        )
        .all(...chunk);
      for (const r of rows) out.push([r.id, r.event_seq]);
    }
    return out;
  }

  private replayNow(
    userId: number,
    lastId: number,
    clientEpoch: string | null,
  ): { needSync: boolean; frames: EventFrame[]; current: number } {
    const current = this.currentSeq.get(userId)?.event_seq ?? 0;
    if (clientEpoch !== null && clientEpoch !== this.epoch) return { needSync: true, frames: [], current };
    if (lastId === 0 && clientEpoch === null) return { needSync: false, frames: [], current };
    if (lastId > current) return { needSync: true, frames: [], current };
    const oldest = this.oldestSeq.get(userId)?.s;
    if (lastId < current && (oldest == null || oldest > lastId + 1)) return { needSync: true, frames: [], current };
    const rows = this.missed.all(userId, lastId);
    const frames = rows.map((r) => ({ action: r.action, id: r.seq, data: JSON.parse(r.data) as unknown }) as EventFrame);
    return { needSync: false, frames, current };
  }
}
