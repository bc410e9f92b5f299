import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type EngineClock, realClock } from '../../../src/engine/clock';
import { SOCKET_CLOSE_RESTART } from '../../../src/protocol/constants';
import type { ConnectionState } from '../../../src/engine/api';
import {
  SocketConnection,
  type SocketDelivery,
  type SocketLike,
  type SocketParams,
} from '../../../src/engine/socket';

/** A socket the test drives by hand: what the server would do is a method call here. */
class FakeSocket implements SocketLike {
  readonly sent: string[] = [];
  closeCalls = 0;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    this.sent.push(data);
  }

  close(): void {
    this.closeCalls += 1;
  }

  open(): void {
    this.onopen?.({});
  }

  receive(frame: unknown): void {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }

  receiveRaw(data: unknown): void {
    this.onmessage?.({ data });
  }

  /** What a browser does when the connection fails: error, then close. */
  fail(): void {
    this.onerror?.({});
    this.onclose?.({});
  }

  drop(code?: number): void {
    this.onclose?.(code === undefined ? {} : { code });
  }
}

const message = (id: number, text: string) => ({
  action: 'conversation_message',
  id,
  data: { conversation_id: 1, message: { id: 100 + id, message: text } },
});

function setup(options: { random?: number; params?: Partial<SocketParams>; factoryThrows?: () => boolean } = {}) {
  const sockets: FakeSocket[] = [];
  const params: SocketParams = { wsBase: 'ws://api.test', token: 'tok', lastEventId: 0, epoch: null, ...options.params };
  const deliveries: SocketDelivery[] = [];
  const states: ConnectionState[] = [];
  const warn = vi.fn();
  const clock: EngineClock = { ...realClock, random: () => options.random ?? 0.5 };
  const connection = new SocketConnection({
    params: () => ({ ...params }),
    onFrame: (d) => deliveries.push(d),
    factory: (url) => {
      if (options.factoryThrows?.()) throw new SyntaxError('bad url');
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    clock,
    logger: { warn },
  });
  connection.state$.subscribe((s) => states.push(s));
  const last = (): FakeSocket => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  };
  return { connection, sockets, params, deliveries, states, warn, last };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('SocketConnection states and reconnect', () => {
  it('goes connecting → online → closed and reconnects after 3 s + jitter, not before', () => {
    const t = setup({ random: 0.5 });
    expect(t.connection.state).toBe('closed');
    t.connection.start();
    expect(t.sockets).toHaveLength(1);
    expect(t.connection.state).toBe('connecting');
    t.last().open();
    expect(t.connection.state).toBe('online');
    t.last().drop();
    expect(t.connection.state).toBe('closed');

    vi.advanceTimersByTime(3499);
    expect(t.sockets).toHaveLength(1);
    expect(t.connection.state).toBe('closed');
    vi.advanceTimersByTime(1);
    expect(t.sockets).toHaveLength(2);
    expect(t.connection.state).toBe('connecting');
    t.last().open();
    expect(t.states).toEqual(['closed', 'connecting', 'online', 'closed', 'connecting', 'online']);
  });

  it.each([
    [0, 3000],
    [0.9999, 3999],
  ])('draws the jitter from the clock (random %f → %i ms)', (random, delay) => {
    const t = setup({ random });
    t.connection.start();
    t.last().drop();
    vi.advanceTimersByTime(delay - 1);
    expect(t.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(t.sockets).toHaveLength(2);
  });

  it('reconnects after the jitter alone when a draining server closes with 1012 (issue 21), else after 3 s', () => {
    const t = setup({ random: 0.5 });
    t.connection.start();
    t.last().open();
    t.last().drop(SOCKET_CLOSE_RESTART);
    expect(t.connection.state).toBe('closed');
    vi.advanceTimersByTime(499);
    expect(t.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(t.sockets).toHaveLength(2);
    // Any other close code keeps the usual delay.
    t.last().open();
    t.last().drop(1001);
    vi.advanceTimersByTime(3499);
    expect(t.sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(t.sockets).toHaveLength(3);
  });

  it('reconnects once after an error followed by its close, and after a connect that never opened', () => {
    const t = setup({ random: 0 });
    t.connection.start();
    t.last().fail();
    expect(t.connection.state).toBe('closed');
    expect(t.sockets[0]?.closeCalls).toBe(1);
    // One pending reconnect, no watchdog for the socket that is gone.
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(3000);
    expect(t.sockets).toHaveLength(2);
    t.last().fail();
    vi.advanceTimersByTime(3000);
    expect(t.sockets).toHaveLength(3);
  });

  it('keeps retrying while the factory throws', () => {
    let throwing = true;
    const t = setup({ random: 0, factoryThrows: () => throwing });
    t.connection.start();
    expect(t.sockets).toHaveLength(0);
    expect(t.connection.state).toBe('closed');
    expect(t.warn).toHaveBeenCalledWith('websocket: could not open a socket', expect.anything());
    throwing = false;
    vi.advanceTimersByTime(3000);
    expect(t.sockets).toHaveLength(1);
    expect(t.connection.state).toBe('connecting');
  });

  it('start() and stop() are idempotent', () => {
    const t = setup();
    t.connection.start();
    t.connection.start();
    expect(t.sockets).toHaveLength(1);
    t.connection.stop();
    t.connection.stop();
    expect(t.sockets[0]?.closeCalls).toBe(1);
    expect(t.connection.state).toBe('closed');
    t.connection.start();
    expect(t.sockets).toHaveLength(2);
  });

  it('stop() cancels a pending reconnect', () => {
    const t = setup();
    t.connection.start();
    t.last().open();
    t.last().drop();
    t.connection.stop();
    vi.advanceTimersByTime(60_000);
    expect(t.sockets).toHaveLength(1);
    expect(t.connection.state).toBe('closed');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stop() closes a live socket and ignores what it says afterwards', () => {
    const t = setup();
    t.connection.start();
    const socket = t.last();
    socket.open();
    t.connection.stop();
    expect(socket.closeCalls).toBe(1);
    socket.receive(message(1, 'late'));
    socket.drop();
    vi.advanceTimersByTime(60_000);
    expect(t.deliveries).toEqual([]);
    expect(t.sockets).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stays closed without a token, and connects when started again after sign-in', () => {
    const t = setup({ params: { token: null } });
    t.connection.start();
    expect(t.sockets).toHaveLength(0);
    expect(t.connection.state).toBe('closed');
    expect(vi.getTimerCount()).toBe(0);
    t.params.token = 'signed-in';
    t.connection.start();
    expect(t.sockets).toHaveLength(1);
  });

  it('gives up reconnecting when the token is gone by the time of the reconnect', () => {
    const t = setup({ random: 0 });
    t.connection.start();
    t.last().drop();
    t.params.token = null;
    vi.advanceTimersByTime(3000);
    expect(t.sockets).toHaveLength(1);
    expect(t.connection.state).toBe('closed');
    expect(vi.getTimerCount()).toBe(0);
    // Stopped, not waiting: the next start() after sign-in connects at once.
    t.params.token = 'signed-in-again';
    t.connection.start();
    expect(t.sockets).toHaveLength(2);
    expect(t.connection.state).toBe('connecting');
  });
});

describe('SocketConnection URL', () => {
  it('carries the current token, last event id and epoch at each reconnect', () => {
    const t = setup({ random: 0 });
    t.connection.start();
    expect(t.last().url).toBe('ws://api.test/ws?token=tok&last_message_id=0&protocol=7&deviceType=webclient');

    t.params.token = 'new/token+1';
    t.params.lastEventId = 42;
    t.params.epoch = '0123456789abcdef';
    t.last().drop();
    vi.advanceTimersByTime(3000);
    expect(t.last().url).toBe(
      'ws://api.test/ws?token=new%2Ftoken%2B1&last_message_id=42&protocol=7&deviceType=webclient&epoch=0123456789abcdef',
    );

    t.params.lastEventId = 57;
    t.params.wsBase = 'wss://override.test/';
    t.last().drop();
    vi.advanceTimersByTime(3000);
    expect(t.last().url).toBe(
      'wss://override.test/ws?token=new%2Ftoken%2B1&last_message_id=57&protocol=7&deviceType=webclient&epoch=0123456789abcdef',
    );
  });
});

describe('SocketConnection pings', () => {
  it('answers a ping with a pong at once and does not deliver it', () => {
    const t = setup();
    t.connection.start();
    t.last().open();
    t.last().receive({ action: 'ping', interval: 10 });
    expect(t.last().sent).toEqual(['{"action":"pong"}']);
    t.last().receive({ action: 'ping', interval: 10 });
    expect(t.last().sent).toEqual(['{"action":"pong"}', '{"action":"pong"}']);
    expect(t.deliveries).toEqual([]);
  });

  it('closes and reconnects when no frame comes within interval + 3 s', () => {
    const t = setup({ random: 0 });
    t.connection.start();
    const first = t.last();
    first.open();
    first.receive({ action: 'ping', interval: 10 });
    vi.advanceTimersByTime(12_999);
    expect(first.closeCalls).toBe(0);
    expect(t.connection.state).toBe('online');
    vi.advanceTimersByTime(1);
    expect(first.closeCalls).toBe(1);
    expect(t.connection.state).toBe('closed');
    expect(t.warn).toHaveBeenCalledWith('websocket: no frame in time; reconnecting', { timeoutMs: 13_000 });

    // A close event the dead socket sends later must not schedule a second reconnect.
    first.drop();
    vi.advanceTimersByTime(3000);
    expect(t.sockets).toHaveLength(2);
    expect(t.connection.state).toBe('connecting');
    vi.advanceTimersByTime(3000);
    expect(t.sockets).toHaveLength(2);
  });

  it('uses the interval of the ping frame, and any frame restarts the timeout', () => {
    const t = setup();
    t.connection.start();
    const socket = t.last();
    socket.open();
    socket.receive({ action: 'ping', interval: 2 });
    vi.advanceTimersByTime(4000);
    socket.receive(message(1, 'keeps it alive'));
    vi.advanceTimersByTime(4999);
    expect(socket.closeCalls).toBe(0);
    vi.advanceTimersByTime(1);
    expect(socket.closeCalls).toBe(1);
    expect(t.connection.state).toBe('closed');
  });

  it('uses the default 10 s interval before the first ping, for a ping without one, and for a hung handshake', () => {
    const t = setup({ random: 0 });
    t.connection.start();
    // Never opens: the handshake is given up on after 10 s + 3 s.
    vi.advanceTimersByTime(12_999);
    expect(t.last().closeCalls).toBe(0);
    vi.advanceTimersByTime(1);
    expect(t.last().closeCalls).toBe(1);
    vi.advanceTimersByTime(3000);
    const second = t.last();
    second.open();
    second.receive({ action: 'ping' });
    expect(second.sent).toEqual(['{"action":"pong"}']);
    vi.advanceTimersByTime(12_999);
    expect(second.closeCalls).toBe(0);
    vi.advanceTimersByTime(1);
    expect(second.closeCalls).toBe(1);
  });

  it('starts each new socket from the default interval, not the last server interval', () => {
    const t = setup({ random: 0 });
    t.connection.start();
    t.last().open();
    t.last().receive({ action: 'ping', interval: 1 });
    t.last().drop();
    vi.advanceTimersByTime(3000);
    t.last().open();
    vi.advanceTimersByTime(4001);
    expect(t.last().closeCalls).toBe(0);
  });
});

describe('SocketConnection frames', () => {
  it('connects from the last event id it is given and delivers socket_loaded and event frames in order', () => {
    const t = setup({ params: { lastEventId: 5, epoch: 'e1' } });
    t.connection.start();
    expect(t.last().url).toContain('last_message_id=5&');
    const socket = t.last();
    socket.open();
    socket.receive({ action: 'ping', interval: 10 });
    socket.receive(message(6, 'missed'));
    socket.receive(message(7, 'missed too'));
    socket.receive({ action: 'socket_loaded', data: { need_sync: false, last_message_id: 7, epoch: 'e1' } });
    socket.receive({ action: 'user_presence', data: { user_id: 2, online: true, last_seen: '1' } });
    socket.receive(message(8, 'live'));
    expect(t.deliveries.map((d) => (d.type === 'socket' ? `${d.frame.action}:${d.frame.id ?? '-'}` : d))).toEqual([
      'conversation_message:6',
      'conversation_message:7',
      { type: 'socketLoaded', needSync: false, lastEventId: 7, epoch: 'e1' },
      'user_presence:-',
      'conversation_message:8',
    ]);
    expect(t.deliveries[0]).toEqual({ type: 'socket', frame: message(6, 'missed') });
  });

  it('hands over need_sync with the last_message_id and epoch of the server, even below the id it connected with', () => {
    const t = setup({ params: { lastEventId: 900, epoch: 'old' } });
    t.connection.start();
    t.last().open();
    t.last().receive({ action: 'socket_loaded', data: { need_sync: true, last_message_id: 12, epoch: 'new' } });
    expect(t.deliveries).toEqual([{ type: 'socketLoaded', needSync: true, lastEventId: 12, epoch: 'new' }]);
  });

  it('logs and ignores frames it cannot read, without throwing or closing', () => {
    const t = setup();
    t.connection.start();
    const socket = t.last();
    socket.open();
    const bad: unknown[] = [
      'not json {',
      '[]',
      'null',
      '42',
      '{"data":{}}',
      '{"action":""}',
      '{"action":7}',
      '{"action":"no_such_action","data":{}}',
      '{"action":"conversation_message"}',
      '{"action":"conversation_message","data":[]}',
      '{"action":"conversation_message","id":-1,"data":{}}',
      '{"action":"conversation_message","id":"7","data":{}}',
      '{"action":"socket_loaded"}',
      '{"action":"socket_loaded","data":{"need_sync":"yes","last_message_id":1}}',
      '{"action":"socket_loaded","data":{"need_sync":false,"last_message_id":-4}}',
    ];
    for (const frame of bad) expect(() => socket.receive(frame)).not.toThrow();
    expect(() => socket.receiveRaw(new ArrayBuffer(4))).not.toThrow();
    expect(t.warn).toHaveBeenCalledTimes(bad.length + 1);
    expect(t.warn).toHaveBeenCalledWith('websocket: ignored a frame', { reason: 'not JSON', length: 10 });
    expect(t.warn).toHaveBeenCalledWith('websocket: ignored a frame', { reason: 'no action', length: 11 });
    expect(t.warn).toHaveBeenCalledWith('websocket: ignored a frame', { reason: 'not a text frame', length: undefined });
    expect(t.deliveries).toEqual([]);
    expect(socket.sent).toEqual([]);
    expect(socket.closeCalls).toBe(0);
    expect(t.connection.state).toBe('online');
    socket.receive(message(1, 'still works'));
    expect(t.deliveries).toHaveLength(1);
  });

  it('logs a frame handler that throws and keeps the connection', () => {
    const warn = vi.fn();
    let socket: FakeSocket | undefined;
    const handled: number[] = [];
    const connection = new SocketConnection({
      params: () => ({ wsBase: 'ws://api.test', token: 'tok', lastEventId: 0, epoch: null }),
      onFrame: (d) => {
        if (d.type === 'socket') handled.push(d.frame.id ?? 0);
        throw new Error('reducer bug');
      },
      factory: (url) => (socket = new FakeSocket(url)),
      clock: realClock,
      logger: { warn },
    });
    connection.start();
    socket?.open();
    expect(() => socket?.receive(message(1, 'x'))).not.toThrow();
    expect(warn).toHaveBeenCalledWith('websocket: a frame handler threw', expect.objectContaining({ type: 'socket' }));
    expect(connection.state).toBe('online');
    // The next frame still reaches the handler.
    socket?.receive(message(2, 'y'));
    expect(handled).toEqual([1, 2]);
    connection.stop();
  });
});
