import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { PING_GRACE_MS, PROTOCOL_VERSION, SOCKET_CLOSE_RESTART } from '../../src/protocol/constants';
import type { ServerFrame } from '../../src/protocol/socket';
import type { Db } from '../db/database';
import { epochSeconds } from '../domain/ids';
import { userForToken } from '../http/auth';
import { EVENT_ID_RANGE, wholeNumber } from '../http/numbers';
import type { Delivery, DeliveryTarget, EventLog } from './events';
import { originAllowed } from './originCheck';

interface Connection {
  socket: WebSocket;
  userId: number;
  pingTimer: NodeJS.Timeout | undefined;
  pongDeadline: NodeJS.Timeout | undefined;
}

export interface HubOptions {
  db: Db;
  events: EventLog;
  pingIntervalMs: number;
  /** Foreign page origins allowed to open a socket (ALLOWED_ORIGINS); the page's own origin always may. */
  allowedOrigins: readonly string[];
  now: () => number;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Each frame handed to a socket, with the monotonic time (performance.now()) its event was stored. */
  onDelivered?: (storedAt: number) => void;
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

  constructor(private readonly options: HubOptions) {
    options.events.attach(this);
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

  deliver(deliveries: Delivery[]): void {
    const onDelivered = this.options.onDelivered;
    for (const { userId, frame, text: built, storedAt } of deliveries) {
      const connections = this.byUser.get(userId);
      if (!connections) continue;
      const text = built ?? JSON.stringify(frame);
      for (const c of connections) {
        if (c.socket.readyState !== WebSocket.OPEN) continue;
        c.socket.send(text);
        if (storedAt !== undefined) onDelivered?.(storedAt);
      }
    }
  }

  /**
   * A draining node's goodbye (issue 21): refuses new sockets and closes every open one with
   * SOCKET_CLOSE_RESTART, which tells the client to reconnect at once (to another node) instead of after the
   * usual delay. No presence goes out: the user is moving, not leaving.
   */
  closeForRestart(): void {
    this.closing = true;
    for (const set of this.byUser.values()) for (const c of set) c.socket.close(SOCKET_CLOSE_RESTART, 'reconnect');
  }

  close(): void {
    this.closing = true;
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
    const user = userForToken(this.options.db, url.searchParams.get('token') ?? undefined);
    if (!user) return this.reject(socket, 401, 'Unauthorized');
    // An empty epoch is no epoch: the client does not know this database yet.
    const epoch = url.searchParams.get('epoch') || null;
    this.wss.handleUpgrade(request, socket, head, (ws) => this.open(ws, user.id, lastId, epoch));
  }

  private open(socket: WebSocket, userId: number, lastId: number, epoch: string | null): void {
    const connection: Connection = { socket, userId, pingTimer: undefined, pongDeadline: undefined };
    const set = this.byUser.get(userId) ?? new Set<Connection>();
    const firstForUser = set.size === 0;
    set.add(connection);
    this.byUser.set(userId, set);

    // Replay and registration happen in the same tick, so no event falls between them.
    const { needSync, frames, current } = this.options.events.replay(userId, lastId, epoch);
    this.send(socket, { action: 'ping', interval: this.options.pingIntervalMs / 1000 });
    for (const frame of frames) this.send(socket, frame);
    this.send(socket, {
      action: 'socket_loaded',
      data: { need_sync: needSync, last_message_id: current, epoch: this.options.events.epoch },
    });

    this.schedulePing(connection);
    socket.on('message', (raw) => this.onMessage(connection, raw.toString()));
    socket.on('close', () => this.onClose(connection));
    socket.on('error', () => socket.terminate());
    if (firstForUser) this.presence(userId, true);
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
    clearTimeout(connection.pongDeadline);
    const set = this.byUser.get(connection.userId);
    if (!set) return;
    set.delete(connection);
    if (set.size === 0) {
      this.byUser.delete(connection.userId);
      this.presence(connection.userId, false);
    }
  }

  private presence(userId: number, online: boolean): void {
    if (this.closing) return;
    const peers = this.options.db
      .prepare<[number, number], { user_id: number }>(
        `SELECT DISTINCT m2.user_id FROM conversation_members m1
         JOIN conversation_members m2 ON m2.conversation_id = m1.conversation_id
         JOIN conversations c ON c.id = m1.conversation_id AND c.group_type = 'normal'
         WHERE m1.user_id = ? AND m2.user_id != ?`,
      )
      .all(userId, userId)
      .map((r) => r.user_id);
    this.options.events.ephemeral(peers, 'user_presence', {
      user_id: userId,
      online,
      last_seen: epochSeconds(this.options.now()),
    });
  }

  private send(socket: WebSocket, frame: ServerFrame): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }
}
