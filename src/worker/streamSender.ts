import { StreamEncoder, type WireValue } from './streamCodec';

/** Later values of a subscription are gathered this long, and only the latest crosses. */
export const COALESCE_MS = 16;

export type Schedule = (run: () => void) => void;

/** The default schedule: one animation frame's worth of time (a worker has no requestAnimationFrame). */
export const frameSchedule: Schedule = (run) => {
  setTimeout(run, COALESCE_MS);
};

/**
 * The worker's sending side of one client (a tab's port or a follower's link): each subscription's values
 * go out encoded (streamCodec.ts), its first value at once and later ones at most once per COALESCE_MS,
 * always the latest, so a burst of engine updates (a socket replay, a list load) costs one crossing.
 *
 * Order is kept where a client can see it: whatever is pending for any subscription of the client goes
 * out before a new subscription's first value, before an error or completion, and (the caller's part,
 * `flush()`) before a command's result, so a tab that awaited a command sees the state it left (a
 * follower's link carries both on one channel; over Comlink, clientServer.ts also waits for the tab to
 * take them, as each observer has a port of its own).
 */
export class StreamSenders {
  private readonly pending = new Map<number, () => void>();
  private nextId = 1;
  private scheduled = false;

  constructor(private readonly schedule: Schedule = frameSchedule) {}

  /**
   * A sender for one subscription. `send` posts a wire value; when it throws or its promise rejects (the
   * value cannot be cloned, the port is gone) the encoder forgets what it sent, so a later value crosses
   * whole. (A decoder that got a delta against a value it never received refuses it: RowsDelta.from.)
   */
  open(
    send: (wire: WireValue) => void | Promise<unknown>,
    /** An event stream (names.ts EVENT_QUERIES): every value goes out, at once and whole. */
    events = false,
  ): { next(value: unknown): void; before(): void; close(): void } {
    const id = this.nextId++;
    const encoder = new StreamEncoder();
    let first = true;
    const post = (value: unknown) => {
      try {
        const sent = send(events ? { $bridge: 'value', value } : encoder.encode(value));
        if (sent) sent.catch(() => encoder.reset());
      } catch (error) {
        encoder.reset();
        throw error;
      }
    };
    return {
      next: (value) => {
        if (first || events) {
          first = false;
          this.flush();
          post(value);
          return;
        }
        this.pending.set(id, () => post(value));
        this.arm();
      },
      /** Sends what is pending (of every subscription), before an error or completion of this one. */
      before: () => this.flush(),
      close: () => {
        this.pending.delete(id);
      },
    };
  }

  /** Sends every pending value now. */
  flush(): void {
    if (this.pending.size === 0) return;
    const sends = [...this.pending.values()];
    this.pending.clear();
    for (const send of sends) {
      try {
        send();
      } catch {
        // Its own subscription hears of it through the encoder reset; the others still go out.
      }
    }
  }

  private arm(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      this.flush();
    });
  }
}
