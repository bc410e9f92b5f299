import { BehaviorSubject, type Observable } from 'rxjs';
import {
  DEFAULT_PING_INTERVAL_MS,
  PING_GRACE_MS,
  RECONNECT_DELAY_MS,
  SOCKET_CLOSE_RESTART,
  SOCKET_CLOSE_SESSION_ENDED,
} from '../../protocol/constants';
import type { PongFrame } from '../../protocol/socket';
import { type EngineClock, realClock } from '../clock';
import type { EngineEvent } from '../state/types';
import { parseFrame } from './parseFrame';
import { type SocketFactory, type SocketLike, globalSocketFactory } from './socketLike';
import { type SocketParams, buildSocketUrl } from './socketUrl';
import type { ConnectionState } from '../contract/types';

/** What the connection hands the engine: exactly the reducer inputs of state/types.ts, ready to dispatch. */
export type SocketDelivery = Extract<EngineEvent, { type: 'socket' | 'socketSkipped' | 'socketLoaded' }>;

export interface SocketLogger {
  warn(message: string, detail?: Record<string, unknown>): void;
}

/** design.md §4: a restarted server must not be hit by every client in the same millisecond. */
export const RECONNECT_JITTER_MS = 1000;

export interface SocketConnectionOptions {
  /** Read at every (re)connect, so the newest token, last event id, epoch and host override are used. */
  params: () => SocketParams;
  /** Event frames and socket_loaded, in the order they arrived. Pings are answered here and not delivered. */
  onFrame: (delivery: SocketDelivery) => void;
  factory?: SocketFactory;
  clock?: EngineClock;
  logger?: SocketLogger;
  /**
   * The socket closed before it ever opened. A browser hides the HTTP status of a refused upgrade, so the
   * engine uses this to ask the REST API whether the token is still good (a 401 there signs out).
   */
  onHandshakeFailed?: () => void;
  /**
   * The server closed the socket because its session ended (SOCKET_CLOSE_SESSION_ENDED: logout or ended from
   * another device). The engine asks the REST API at once, whose 401 signs out, so this browser does not wait
   * for its next request (docs/ui.md "Sessions"). The code alone signs nobody out.
   */
  onSessionEnded?: () => void;
}

/** A close frame with SOCKET_CLOSE_RESTART: the server is draining (browser CloseEvent and `ws`'s alike). */
const isRestart = (event: unknown): boolean =>
  typeof event === 'object' && event !== null && (event as { code?: unknown }).code === SOCKET_CLOSE_RESTART;

const isSessionEnd = (event: unknown): boolean =>
  typeof event === 'object' && event !== null && (event as { code?: unknown }).code === SOCKET_CLOSE_SESSION_ENDED;

/** Set on a socket we let go, so its late events reach nobody and `ws` always has an error listener. */
const ignore = (): void => undefined;

/**
 * The engine's one websocket (spec §4): connecting → online → closed, reconnecting RECONNECT_DELAY_MS plus
 * up to RECONNECT_JITTER_MS after every close, error or ping timeout until `stop()`; after a close with
 * SOCKET_CLOSE_RESTART (a draining node) the jitter alone.
 *
 * - 'online' as soon as the socket opens: the reference server accepts or refuses the token before the
 *   upgrade, so an open socket is an accepted one, and the replay that follows is already "online" work.
 * - The ping timeout (interval of the last ping + PING_GRACE_MS) runs from the last frame of any kind, and
 *   also guards the handshake (default interval + grace), because a browser may take minutes to give up
 *   on a connect that goes nowhere.
 * - It keeps no event id: the engine persists the last one once the event is applied, and `params` reads it
 *   back at each connect.
 */
export class SocketConnection {
  private readonly subject = new BehaviorSubject<ConnectionState>('closed');
  readonly state$: Observable<ConnectionState> = this.subject.asObservable();

  private readonly factory: SocketFactory;
  private readonly clock: EngineClock;
  private readonly logger: SocketLogger;

  private running = false;
  private socket: SocketLike | null = null;
  private reconnectTimer: unknown = null;
  private watchdogTimer: unknown = null;
  private pingIntervalMs = DEFAULT_PING_INTERVAL_MS;

  constructor(private readonly options: SocketConnectionOptions) {
    this.factory = options.factory ?? globalSocketFactory;
    this.clock = options.clock ?? realClock;
    this.logger = options.logger ?? console;
  }

  get state(): ConnectionState {
    return this.subject.value;
  }

  /** Connects now unless already started. Without a token it stays closed; call again after signing in. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  /** Closes the socket and cancels any pending reconnect. */
  stop(): void {
    this.running = false;
    this.cancelReconnect();
    this.releaseSocket();
    this.setState('closed');
  }

  private connect(): void {
    let params: SocketParams;
    try {
      params = this.options.params();
    } catch (error) {
      this.logger.warn('websocket: could not read the connection parameters', { error });
      this.lost();
      return;
    }
    if (!params.token) {
      // Signed out: nothing to connect with, and nothing to retry until the engine starts us again.
      this.running = false;
      this.setState('closed');
      return;
    }
    let socket: SocketLike;
    try {
      socket = this.factory(buildSocketUrl({ ...params, token: params.token }));
    } catch (error) {
      this.logger.warn('websocket: could not open a socket', { error });
      this.lost();
      return;
    }
    this.socket = socket;
    this.pingIntervalMs = DEFAULT_PING_INTERVAL_MS;
    socket.onopen = () => this.onOpen(socket);
    socket.onmessage = (event) => this.onMessage(socket, event.data);
    socket.onclose = (event) => {
      const current = socket === this.socket;
      this.onGone(socket, isRestart(event) ? 'restart' : 'closed');
      if (current && isSessionEnd(event)) this.options.onSessionEnded?.();
    };
    socket.onerror = () => this.onGone(socket, 'error');
    this.armWatchdog();
    this.setState('connecting');
  }

  private onOpen(socket: SocketLike): void {
    if (socket !== this.socket) return;
    this.armWatchdog();
    this.setState('online');
  }

  private onMessage(socket: SocketLike, data: unknown): void {
    if (socket !== this.socket) return;
    // Any frame, even one we cannot read, shows the connection is alive.
    this.armWatchdog();
    const parsed = parseFrame(data);
    if (!parsed.ok) {
      this.logger.warn('websocket: ignored a frame', {
        reason: parsed.reason,
        length: typeof data === 'string' ? data.length : undefined,
      });
      return;
    }
    const { frame } = parsed;
    switch (frame.kind) {
      case 'ping':
        this.pingIntervalMs = frame.intervalMs;
        this.armWatchdog();
        this.send(socket, { action: 'pong' });
        return;
      case 'loaded':
        this.deliver({
          type: 'socketLoaded',
          needSync: frame.needSync,
          lastEventId: frame.lastEventId,
          epoch: frame.epoch,
        });
        return;
      case 'event':
        this.deliver({ type: 'socket', frame: frame.frame });
        return;
      case 'skipped':
        this.logger.warn('websocket: ignored an event it cannot read', { reason: frame.reason, id: frame.id });
        this.deliver({ type: 'socketSkipped', id: frame.id });
        return;
    }
  }

  private onGone(socket: SocketLike, what: 'closed' | 'error' | 'restart'): void {
    if (socket !== this.socket) return;
    const neverOpened = this.subject.value === 'connecting';
    this.logger.warn(`websocket ${what}; reconnecting`);
    // A node that drains sends everyone elsewhere now; only the jitter spreads them over the other nodes.
    this.lost(what === 'restart' ? 0 : RECONNECT_DELAY_MS);
    if (neverOpened) this.options.onHandshakeFailed?.();
  }

  /** The socket is gone or given up on: let it go, and come back after the delay unless stopped. */
  private lost(delayMs = RECONNECT_DELAY_MS): void {
    this.releaseSocket();
    if (this.running) this.scheduleReconnect(delayMs);
    this.setState('closed');
  }

  private scheduleReconnect(delayMs: number): void {
    this.cancelReconnect();
    const jitter = Math.floor(this.clock.random() * RECONNECT_JITTER_MS);
    this.reconnectTimer = this.clock.setTimeout(() => {
      this.reconnectTimer = null;
      if (this.running) this.connect();
    }, delayMs + jitter);
  }

  private cancelReconnect(): void {
    if (this.reconnectTimer === null) return;
    this.clock.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private armWatchdog(): void {
    this.disarmWatchdog();
    const timeoutMs = this.pingIntervalMs + PING_GRACE_MS;
    this.watchdogTimer = this.clock.setTimeout(() => {
      this.watchdogTimer = null;
      this.logger.warn('websocket: no frame in time; reconnecting', { timeoutMs });
      this.lost();
    }, timeoutMs);
  }

  private disarmWatchdog(): void {
    if (this.watchdogTimer === null) return;
    this.clock.clearTimeout(this.watchdogTimer);
    this.watchdogTimer = null;
  }

  /** Detaches and closes the current socket; its later events (a close that comes late) are ignored. */
  private releaseSocket(): void {
    this.disarmWatchdog();
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    socket.onopen = ignore;
    socket.onmessage = ignore;
    socket.onclose = ignore;
    socket.onerror = ignore;
    try {
      socket.close();
    } catch (error) {
      this.logger.warn('websocket: close failed', { error });
    }
  }

  private send(socket: SocketLike, frame: PongFrame): void {
    try {
      socket.send(JSON.stringify(frame));
    } catch (error) {
      // A socket that cannot send is about to close; its close event brings the reconnect.
      this.logger.warn('websocket: send failed', { error });
    }
  }

  private deliver(delivery: SocketDelivery): void {
    try {
      this.options.onFrame(delivery);
    } catch (error) {
      // The engine's bug must not take the connection down with it (nor escape into the socket library).
      this.logger.warn('websocket: a frame handler threw', { error, type: delivery.type });
    }
  }

  private setState(state: ConnectionState): void {
    if (this.subject.value !== state) this.subject.next(state);
  }
}
