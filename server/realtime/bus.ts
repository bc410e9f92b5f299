/**
 * What one node tells the others (issue 21). The bus is only a doorbell: an event is in the database before
 * its note goes out, so a lost note costs latency (the hub's sweep finds the event), never a message. A note
 * carries each event's data too, so a node whose socket is up to date sends it without reading it back; a
 * socket that missed something first gets what it missed from the database.
 */
export interface BusEvent {
  action: string;
  /** The event's data as JSON, once for all its receivers. */
  payload: string;
  /** Each receiver and the event's id for them. */
  users: [userId: number, seq: number][];
}

export type BusNote =
  | { kind: 'events'; events: BusEvent[] }
  /** Frames with no id and not stored (presence): sent as they are to these users' sockets on every node. */
  | { kind: 'frames'; frames: [userId: number, text: string][] }
  /** Sessions that ended (docs/server.md "Sessions"): every node closes their sockets. */
  | { kind: 'sessionsEnded'; sessions: string[] };

export interface EventBus {
  /** Whether other nodes hear this one: without them, nothing needs publishing or sweeping. */
  readonly shared: boolean;
  publish(note: BusNote): void;
  /** Notes from the other nodes (never this node's own). */
  onNote(handler: (note: BusNote) => void): void;
  /** Called when the bus comes back after an outage: notes may have been lost meanwhile. */
  onReconnect(handler: () => void): void;
  /** Throws when the bus cannot be reached (the readiness check). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** One node alone: everything is delivered in this process, so there is nobody to tell. */
export class LocalBus implements EventBus {
  readonly shared = false;
  publish(): void {}
  onNote(): void {}
  onReconnect(): void {}
  async check(): Promise<void> {}
  async close(): Promise<void> {}
}
