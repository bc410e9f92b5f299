import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { PING_GRACE_MS, PROTOCOL_VERSION, SOCKET_CLOSE_RESTART, SOCKET_CLOSE_SESSION_ENDED } from '../../src/protocol/constants';
import type { ServerFrame } from '../../src/protocol/socket';
import { type Store, sql } from '../db/store';
import { epochSeconds } from '../domain/ids';
import { userForToken } from '../http/auth';
import { EVENT_ID_RANGE, wholeNumber } from '../http/numbers';
import type { BusEvent, BusNote, EventBus } from './bus';
import { type Delivery, type DeliveryTarget, type EventLog, frameText } from './events';
import type { PresenceCounter } from './presence';
import { originAllowed } from './originCheck';

/**
 * How long an early event waits for the note of the one before it. Notes from different nodes overtake each
 * other by a few milliseconds; under load, by more. Reading the database for each such socket made a loaded
 * cluster read a few hundred times a second (issue 21's fan-out-cluster benchmark), and those reads slowed it
 * further.
 */
const REORDER_HOLD_MS = 250;

/** Why a socket's missed events were read from the database: a gap no note filled in time, or the sweep found one. */
export type CatchUpReason = 'gap' | 'sweep';

interface Connection {
  socket: WebSocket;
  userId: number;
  /** The session (token) it was opened with, so ending that session closes it (docs/server.md "Sessions"). */
  session: string;
  /**
   * The id of the last event this socket was sent. Events go out strictly in id order, without a gap: one
   * that comes early (its note beat another node's) brings the ones before it from the database first.
   */
  lastSent: number;
  /**
   * While the database is read for this socket (its replay, or a catch-up), nothing else is sent to it, so
   * nothing goes out before what was read or twice: an event heard meanwhile only raises `wanted` (the read
   * looks again when it ends), and a frame with no id waits in `held`.
   */
  reading: boolean;
  /** The newest event id this socket is known to be owed (heard of while reading, or found by the sweep). */
  wanted: number;
  held: string[];
  /**
   * Events that came before the one after `lastSent` (another node's note is usually only a moment behind):
   * kept for `REORDER_HOLD_MS` and sent once the gap fills, so a note that merely overtook another costs no read
   * of the database. The database is read only if the gap is still there when the hold ends.
   */
  early: Map<number, string>;
  earlyTimer: NodeJS.Timeout | undefined;
  pingTimer: NodeJS.Timeout | undefined;
  pongDeadline: NodeJS.Timeout | undefined;
}

export interface HubOptions {
  db: Store;
  events: EventLog;
  pingIntervalMs: number;
  /** Foreign page origins allowed to open a socket (ALLOWED_ORIGINS); the page's own origin always may. */
  allowedOrigins: readonly string[];
  now: () => number;
  /** How long a session may go unused before its token is refused (SESSION_IDLE_DAYS). */
  sessionIdleMs: number;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Each frame handed to a socket, with the monotonic time (performance.now()) its event was stored. */
  onDelivered?: (storedAt: number) => void;
  /** Each read of the database for a socket's missed events (not its replay), by why it was needed. */
  onCatchUp?: (reason: CatchUpReason) => void;
  /** The other nodes (issue 21); a LocalBus when this node is alone. */
  bus: EventBus;
  /** Whether a user's socket is their first or last anywhere (the cluster's, with several nodes). */
  presence: PresenceCounter;
  /**
   * With a shared bus, how often every socket's user is checked in the database for events no note told
   * this node of (a note lost while the bus was away): the most a lost note delays an event.
   */
  sweepIntervalMs: number;
}

/**
 * The websocket endpoint of design.md §4: `/ws?token=T&last_message_id=N&protocol=7&deviceType=webclient`.
 * Replays what a reconnecting client missed, pings every interval and drops a client that has not
 * answered within interval + 3 s. The token is read here and never logged.
 */
export class SocketHub implements DeliveryTarget {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly byUser = new Map<number, Set<Connection>>();
  private closing = false;
  private readonly sweepTimer: NodeJS.Timeout | undefined;
  /** A sweep is reading the database; `sweepAgain`: another was asked for meanwhile (it runs after). */
  private sweeping = false;
  private sweepAgain = false;
  /**
   * Each user's newest event id at the last timed sweep. An event is caught up by a timed sweep only when it
   * was already stored at the one before and still not sent: one stored since may have a note on its way.
   */
  private sweptSeqs = new Map<number, number>();

  constructor(private readonly options: HubOptions) {
    options.events.attach(this);
    const { bus } = options;
    bus.onNote((note) => this.heard(note));
    if (bus.shared) {
      bus.onReconnect(() => void this.sweep(true));
      this.sweepTimer = setInterval(() => void this.sweep(), options.sweepIntervalMs);
      this.sweepTimer.unref();
    }
  }

  attach(server: Server): void {
    server.on('upgrade', (request, socket, head) => this.upgrade(request, socket, head));
  }

  connectionCount(userId?: number): number {
    if (userId !== undefined) return this.byUser.get(userId)?.size ?? 0;
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  /** This node's committed events (and presence): to its own sockets now, and a note to the other nodes. */
  deliver(deliveries: Delivery[]): void {
    const { onDelivered, bus } = this.options;
    // One entry per stored event (its receivers share the payload string), for the other nodes: none alone.
    const events = new Map<string, BusEvent>();
    const frames: [number, string][] = [];
    for (const { userId, frame, text: built, storedAt, payload } of deliveries) {
      const text = built ?? JSON.stringify(frame);
      const seq = 'id' in frame && typeof frame.id === 'number' ? frame.id : undefined;
      if (bus.shared && seq === undefined) frames.push([userId, text]);
      else if (bus.shared && seq !== undefined && payload !== undefined) {
        const event = events.get(payload) ?? { action: frame.action, payload, users: [] };
        event.users.push([userId, seq]);
        events.set(payload, event);
      }
      const connections = this.byUser.get(userId);
      if (!connections) continue;
      for (const c of connections) {
        if (c.socket.readyState !== WebSocket.OPEN) continue;
        if (seq === undefined) this.sendFrame(c, text);
        else if (!this.sendInOrder(c, seq, text)) continue;
        if (storedAt !== undefined) onDelivered?.(storedAt);
      }
    }
    if (events.size > 0) bus.publish({ kind: 'events', events: [...events.values()] });
    if (frames.length > 0) bus.publish({ kind: 'frames', frames });
  }

  /**
   * Sends event `seq` to one socket in order: nothing when it already went, itself when it is next and no
   * read of the database is under way for the socket, else everything after the socket's last from the
   * database (it is committed, so it is there), by the catch-up it starts or joins. Answers whether `seq`
   * is this call's to send: now, or with that catch-up.
   */
  private sendInOrder(c: Connection, seq: number, text: string): boolean {
    if (seq <= c.lastSent || c.early.has(seq)) return false;
    if (c.reading) {
      this.catchUp(c, seq);
      return true;
    }
    if (seq === c.lastSent + 1) {
      c.socket.send(text);
      c.lastSent = seq;
      this.sendEarly(c);
      return true;
    }
    c.early.set(seq, text);
    c.earlyTimer ??= setTimeout(() => this.holdEnded(c), REORDER_HOLD_MS);
    return true;
  }

  /** The early events that are now next, in order; the hold ends when nothing early is left. */
  private sendEarly(c: Connection): void {
    for (let next = c.early.get(c.lastSent + 1); next !== undefined; next = c.early.get(c.lastSent + 1)) {
      c.early.delete(c.lastSent + 1);
      c.socket.send(next);
      c.lastSent += 1;
    }
    for (const seq of c.early.keys()) if (seq <= c.lastSent) c.early.delete(seq);
    if (c.early.size === 0) this.endHold(c);
  }

  private endHold(c: Connection): void {
    clearTimeout(c.earlyTimer);
    c.earlyTimer = undefined;
  }

  /** The hold ran out with a gap still open: everything up to the newest early event comes from the database. */
  private holdEnded(c: Connection): void {
    c.earlyTimer = undefined;
    if (c.early.size === 0) return;
    const upTo = Math.max(...c.early.keys());
    c.early.clear();
    this.options.onCatchUp?.('gap');
    this.catchUp(c, upTo);
  }

  /** A frame with no id (presence): now, or after the read of the database under way for the socket. */
  private sendFrame(c: Connection, text: string): void {
    if (c.reading) c.held.push(text);
    else c.socket.send(text);
  }

  /**
   * Makes sure a socket gets every stored event up to `upTo`: a read of the database under way for it takes
   * the new mark along when it ends, else one starts now.
   */
  private catchUp(c: Connection, upTo: number): void {
    c.wanted = Math.max(c.wanted, upTo);
    if (c.reading || c.socket.readyState !== WebSocket.OPEN) return;
    c.reading = true;
    void this.readMissed(c);
  }

  /**
   * Sends a socket every stored event after its last, until it has what it is owed (events heard while the
   * database was read raise the mark and are read along); a gap the log no longer holds, or a read that
   * fails, sends it to reconnect, and the replay of the new connection fills it.
   */
  private async readMissed(c: Connection): Promise<void> {
    try {
      while (c.wanted > c.lastSent) {
        const after = c.lastSent;
        const rows = await this.options.events.since(c.userId, after);
        if (c.socket.readyState !== WebSocket.OPEN) return;
        if (rows.length > 0 && (rows[0] as { seq: number }).seq !== after + 1) {
          // Pruned meanwhile: the replay of a new connection answers need_sync.
          c.socket.close(SOCKET_CLOSE_RESTART, 'reconnect');
          return;
        }
        for (const row of rows) {
          c.socket.send(row.text);
          c.lastSent = row.seq;
          c.early.delete(row.seq);
        }
        // Nothing newer is stored: what was announced is committed, so the mark was wrong; forget it.
        if (rows.length === 0) c.wanted = c.lastSent;
      }
    } catch (error) {
      this.options.log.warn({ userId: c.userId, err: error }, 'websocket catch-up failed');
      c.socket.close(SOCKET_CLOSE_RESTART, 'reconnect');
    } finally {
      this.doneReading(c);
    }
  }

  /** The end of a read of the database for a socket: the frames that waited go, then what is still owed. */
  private doneReading(c: Connection): void {
    c.reading = false;
    const held = c.held;
    c.held = [];
    if (c.socket.readyState !== WebSocket.OPEN) return;
    for (const text of held) c.socket.send(text);
    if (c.wanted > c.lastSent) this.catchUp(c, c.wanted);
    else this.sendEarly(c);
  }

  /** A note from another node. */
  private heard(note: BusNote): void {
    if (this.closing) return;
    if (note.kind === 'sessionsEnded') {
      this.closeSessionsHere(note.sessions);
      return;
    }
    if (note.kind === 'frames') {
      for (const [userId, text] of note.frames) {
        for (const c of this.byUser.get(userId) ?? []) if (c.socket.readyState === WebSocket.OPEN) this.sendFrame(c, text);
      }
      return;
    }
    for (const event of note.events) {
      for (const [userId, seq] of event.users) {
        for (const c of this.byUser.get(userId) ?? []) {
          if (c.socket.readyState === WebSocket.OPEN) this.sendInOrder(c, seq, frameText(event.action, seq, event.payload));
        }
      }
    }
  }

  /**
   * Every socket whose user has events it was not sent (a lost note) gets them now. A timed sweep catches up
   * only what was stored before the previous one (an event stored since may have its note on the way, and
   * a loaded cluster is always a little behind: reading for all of them made it more so); the sweep after
   * the bus comes back catches up everything, since notes were lost. One sweep reads at a time; one asked for
   * meanwhile runs after it, so it reads after the outage. Run by the timer (and the bus's return); public so
   * a test can play a turn.
   */
  sweep(afterOutage = false): Promise<void> {
    if (this.closing || this.byUser.size === 0) return Promise.resolve();
    if (this.sweeping) {
      // A timed sweep skips its turn; the bus's return must not be missed.
      if (afterOutage) this.sweepAgain = true;
      return Promise.resolve();
    }
    this.sweeping = true;
    this.sweepAgain = false;
    return this.options.events
      .currentSeqs([...this.byUser.keys()])
      .then(
        (current) => {
          if (this.closing) return;
          const before = this.sweptSeqs;
          this.sweptSeqs = new Map(current);
          for (const [userId, seq] of current) {
            const due = afterOutage ? seq : Math.min(seq, before.get(userId) ?? 0);
            for (const c of this.byUser.get(userId) ?? []) {
              if (due <= c.lastSent) continue;
              this.options.onCatchUp?.('sweep');
              this.catchUp(c, due);
            }
          }
        },
        (error: unknown) => this.options.log.warn({ err: error }, 'websocket sweep failed'),
      )
      .finally(() => {
        this.sweeping = false;
        // The sweep asked for meanwhile was the bus coming back (timed ones only skip a turn).
        if (this.sweepAgain) void this.sweep(true);
      });
  }

  /**
   * Closes the sockets of sessions that ended, on this node and (through the bus) every other, with
   * SOCKET_CLOSE_SESSION_ENDED: their browsers are signed out now, not at their next request.
   */
  closeSessions(sessions: readonly string[]): void {
    if (sessions.length === 0) return;
    this.closeSessionsHere(sessions);
    if (this.options.bus.shared) this.options.bus.publish({ kind: 'sessionsEnded', sessions: [...sessions] });
  }

  private closeSessionsHere(sessions: readonly string[]): void {
    const ended = new Set(sessions);
    for (const set of this.byUser.values()) {
      for (const c of set) if (ended.has(c.session)) c.socket.close(SOCKET_CLOSE_SESSION_ENDED, 'session ended');
    }
  }

  /**
   * A draining node's goodbye (issue 21): refuses new sockets and closes every open one with
   * SOCKET_CLOSE_RESTART, which tells the client to reconnect at once (to another node) instead of after the
   * usual delay. No presence goes out: the user is moving, not leaving.
   */
  closeForRestart(): void {
    this.closing = true;
    clearInterval(this.sweepTimer);
    for (const set of this.byUser.values()) for (const c of set) c.socket.close(SOCKET_CLOSE_RESTART, 'reconnect');
  }

  close(): void {
    this.closing = true;
    clearInterval(this.sweepTimer);
    for (const set of this.byUser.values()) for (const c of set) c.socket.terminate();
    this.wss.close();
  }

  private reject(socket: Duplex, status: number, reason: string): void {
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.closing) return this.reject(socket, 503, 'Service Unavailable');
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://localhost');
    } catch {
      // A malformed request target must not reach the process's uncaught-exception path.
      return this.reject(socket, 400, 'Bad Request');
    }
    if (url.pathname !== '/ws') return this.reject(socket, 404, 'Not Found');
    if (!originAllowed(request.headers, this.options.allowedOrigins)) return this.reject(socket, 403, 'Forbidden');
    const protocol = url.searchParams.get('protocol');
    if (protocol !== null && protocol !== String(PROTOCOL_VERSION)) {
      return this.reject(socket, 400, 'Bad Request');
    }
    const lastRaw = url.searchParams.get('last_message_id') ?? '0';
    const lastId = wholeNumber(lastRaw, EVENT_ID_RANGE);
    if (lastId === null) return this.reject(socket, 400, 'Bad Request');
    // Nobody listens to the raw socket's errors while the token is looked up (Node took its own off for the
    // upgrade, ws adds its own in handleUpgrade): one now would crash the process.
    const onError = () => socket.destroy();
    socket.on('error', onError);
    // An empty epoch is no epoch: the client does not know this database yet.
    const epoch = url.searchParams.get('epoch') || null;
    const check = { now: this.options.now(), idleMs: this.options.sessionIdleMs };
    void userForToken(this.options.db, url.searchParams.get('token') ?? undefined, check).then(
      (user) => {
        if (this.closing) return this.reject(socket, 503, 'Service Unavailable');
        if (!user) return this.reject(socket, 401, 'Unauthorized');
        socket.removeListener('error', onError);
        this.wss.handleUpgrade(request, socket, head, (ws) => this.open(ws, user.id, user.session, lastId, epoch));
      },
      (error: unknown) => {
        this.options.log.warn({ err: error }, 'websocket token lookup failed');
        this.reject(socket, 503, 'Service Unavailable');
      },
    );
  }

  private open(socket: WebSocket, userId: number, session: string, lastId: number, epoch: string | null): void {
    // Registered before the replay is read: an event delivered meanwhile is not lost, only held back (the
    // connection is `reading`) until the replay went out, and sent once, after it.
    const connection: Connection = {
      socket,
      userId,
      session,
      lastSent: 0,
      reading: true,
      wanted: 0,
      held: [],
      early: new Map(),
      earlyTimer: undefined,
      pingTimer: undefined,
      pongDeadline: undefined,
    };
    const set = this.byUser.get(userId) ?? new Set<Connection>();
    set.add(connection);
    this.byUser.set(userId, set);

    this.send(socket, { action: 'ping', interval: this.options.pingIntervalMs / 1000 });
    this.schedulePing(connection);
    socket.on('message', (raw) => this.onMessage(connection, raw.toString()));
    socket.on('close', () => this.onClose(connection));
    socket.on('error', () => socket.terminate());
    void this.replay(connection, lastId, epoch);
    void this.options.presence
      .opened(userId)
      .then(async (first) => {
        if (first) await this.presence(userId, true);
      })
      .catch((error: unknown) => this.options.log.warn({ userId, err: error }, 'presence failed'));
  }

  /**
   * The replayed frames and socket_loaded, after the first ping; then what was held back while they were
   * read. A replay that fails sends the client to reconnect (and replay again).
   */
  private async replay(connection: Connection, lastId: number, epoch: string | null): Promise<void> {
    const { socket, userId } = connection;
    try {
      const { needSync, frames, current } = await this.options.events.replay(userId, lastId, epoch);
      if (socket.readyState !== WebSocket.OPEN) return;
      for (const frame of frames) this.send(socket, frame);
      connection.lastSent = Math.max(current, frames.at(-1)?.id ?? 0);
      this.send(socket, {
        action: 'socket_loaded',
        data: { need_sync: needSync, last_message_id: current, epoch: this.options.events.epoch },
      });
    } catch (error) {
      this.options.log.warn({ userId, err: error }, 'websocket replay failed');
      socket.close(SOCKET_CLOSE_RESTART, 'reconnect');
    } finally {
      this.doneReading(connection);
    }
  }

  private onMessage(connection: Connection, text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof frame === 'object' && frame !== null && (frame as { action?: unknown }).action === 'pong') {
      clearTimeout(connection.pongDeadline);
      connection.pongDeadline = undefined;
    }
  }

  private schedulePing(connection: Connection): void {
    const interval = this.options.pingIntervalMs;
    // The first ping went out on open; expect its pong within interval + grace like every later one.
    connection.pongDeadline = this.deadline(connection);
    connection.pingTimer = setInterval(() => {
      this.send(connection.socket, { action: 'ping', interval: interval / 1000 });
      connection.pongDeadline ??= this.deadline(connection);
    }, interval);
  }

  private deadline(connection: Connection): NodeJS.Timeout {
    return setTimeout(() => {
      this.options.log.info({ userId: connection.userId }, 'websocket dropped: no pong');
      connection.socket.terminate();
    }, this.options.pingIntervalMs + PING_GRACE_MS);
  }

  private onClose(connection: Connection): void {
    clearInterval(connection.pingTimer);
    this.endHold(connection);
    clearTimeout(connection.pongDeadline);
    const set = this.byUser.get(connection.userId);
    if (!set) return;
    set.delete(connection);
    if (set.size === 0) this.byUser.delete(connection.userId);
    // Not while stopping: the users are moving to another node (or the node is going), not leaving.
    if (this.closing) return;
    const { userId } = connection;
    void this.options.presence
      .closed(userId)
      .then(async (last) => {
        if (last) await this.presence(userId, false);
      })
      .catch((error: unknown) => this.options.log.warn({ userId, err: error }, 'presence failed'));
  }

  private async presence(userId: number, online: boolean): Promise<void> {
    if (this.closing) return;
    const now = this.options.now();
    // Kept for whoever opens a chat with them later (GET /v1/users/{id}/presence); the event tells those now.
    if (!online) await this.options.db.run(sql`UPDATE users SET last_seen_at = ${now} WHERE id = ${userId}`);
    const rows = await this.options.db.all<{ user_id: number }>(
      sql`SELECT DISTINCT m2.user_id FROM conversation_members m1
          JOIN conversation_members m2 ON m2.conversation_id = m1.conversation_id
          JOIN conversations c ON c.id = m1.conversation_id AND c.group_type = 'normal'
          WHERE m1.user_id = ${userId} AND m2.user_id != ${userId}`,
    );
    if (this.closing) return;
    const peers = rows.map((r) => r.user_id);
    this.options.events.ephemeral(peers, 'user_presence', {
      user_id: userId,
      online,
      last_seen: epochSeconds(now),
    });
  }

  private send(socket: WebSocket, frame: ServerFrame): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }
}
