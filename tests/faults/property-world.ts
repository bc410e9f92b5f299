import type { EngineClock } from '../../src/engine/clock';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/engine/rest';
import type { SocketLike } from '../../src/engine/socket';
import type { EngineStorage, MemoryStorage, StorageOp, StoreName, StoreTx, TxMode } from '../../src/engine/storage/storage';
import type { Conversation, Message } from '../../src/protocol/entities';
import { message as messageOf } from '../unit/engine/state.fixtures';
import { seededRandom } from './random';

/**
 * The world the outbox property test (issue 12, item 7) runs an Engine in: a server fake that keeps
 * messages, events and receipts the way the reference server does (a send is a retry when the same
 * client_id comes with the same Idempotency-Key; events have per-user ids and are replayed after the
 * client's last one), a clock moved by hand, and per engine "life" adapters, so a crashed engine's
 * timers, writes, calls and socket die with it while the storage and the server live on.
 */

export const SELF = 1;
export const FRIEND = 2;
export const CHAT = 7;
const START = 1_800_000_000_000;

/** What the network does to the next call that changes something: answered, lost on the way, or committed and its answer lost. */
export type Fate = 'ok' | 'drop' | 'cut';

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const answer = (data: unknown): HttpResponse => ({ status: 200, json: async () => ({ success: true, data }) });

/** Lets every promise chain of the fakes run (nothing in the world waits on real I/O). */
export const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** One engine's lifetime: when it ends (a crash), everything it started goes quiet. */
export class Life {
  alive = true;
  constructor(readonly n: number) {}
}

export class WorldClock {
  private t = START;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;

  /** Drawn from the run's seed (local ids, client_ids, the reconnect jitter), so a failing run replays exactly. */
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  now(): number {
    return this.t;
  }

  /** The clock as one life sees it: its timers do not fire once it died. */
  forLife(life: Life): EngineClock {
    return {
      now: () => this.t,
      random: () => this.random(),
      setTimeout: (fn, ms) => {
        const id = this.nextId++;
        this.timers.push({ at: this.t + ms, fn: () => life.alive && fn(), id });
        return id;
      },
      clearTimeout: (handle) => {
        this.timers = this.timers.filter((x) => x.id !== handle);
      },
    };
  }

  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = due.at;
      due.fn();
      await settle();
    }
    this.t = end;
    await settle();
  }
}

/** The storage as one life writes it: a dead engine's writes (and reads) never happen. */
export function storageForLife(storage: MemoryStorage, life: Life): EngineStorage {
  return {
    get: <T>(store: StoreName, key: string) => (life.alive ? storage.get<T>(store, key) : never<T | undefined>()),
    getAll: <T>(store: StoreName) => (life.alive ? storage.getAll<T>(store) : never<{ key: string; value: T }[]>()),
    writeBatch: (ops: readonly StorageOp[]) => (life.alive ? storage.writeBatch(ops) : never<void>()),
    transact: <T>(stores: readonly StoreName[], mode: TxMode, work: (tx: StoreTx) => Promise<T>) =>
      life.alive ? storage.transact(stores, mode, work) : never<T>(),
    close: () => Promise.resolve(),
  };
}

interface Call {
  life: number;
  key: string;
  fate: Fate;
}

export class FakeServer {
  readonly messages: Message[] = [];
  private readonly events: { id: number; frame: { action: string; id: number; data: unknown } }[] = [];
  private readonly sockets = new Set<{ life: Life; socket: SocketLike }>();
  private nextMessageId = 100;
  /** What the network does to the coming sends and receipts; 'ok' once it runs out. */
  fates: Fate[] = [];
  /** Every send and receipt that reached the server (committed), in order, with the life that made it and what came of its answer. */
  readonly sendCalls: Call[] = [];
  readonly receiptCalls: Call[] = [];
  /** How many messages each Idempotency-Key created (must be 1 for every send). */
  readonly created = new Map<string, number>();
  /** The highest message the friend's chat was read and delivered up to, as the server records them. */
  readPoint = 0;
  readonly delivered = new Set<number>();
  up = true;
  /** Calls the network lost (on the way, or their answer). */
  failedCalls = 0;

  constructor(private readonly clock: WorldClock) {}

  private conversation(): Conversation {
    return {
      id: CHAT,
      stid: 'c_x',
      name: 'Erik',
      messages: [],
      last_message: null,
      last_message_time: '0',
      created_at: '1',
      unread_message_count: 0,
      is_unread: false,
    } as unknown as Conversation;
  }

  private message(userId: number, clientId: number, text: string): Message {
    const id = this.nextMessageId++;
    const message = messageOf(id, {
      stid: `m_${id}`,
      client_id: clientId,
      conversation_id: CHAT,
      conversation_stid: 'c_x',
      user_id: userId,
      message: text,
      created_at: String(Math.floor(this.clock.now() / 1000)),
    });
    this.messages.push(message);
    this.emit({ action: 'conversation_message', data: { conversation_id: CHAT, message } });
    return message;
  }

  /** The friend writes: a message the engine must acknowledge with receipts. */
  incoming(text: string): Message {
    return this.message(FRIEND, 1, text);
  }

  private emit(event: { action: string; data: unknown }): void {
    const frame = { ...event, id: this.events.length + 1 };
    this.events.push({ id: frame.id, frame });
    for (const { life, socket } of this.sockets) if (life.alive) deliver(socket, frame);
  }

  /** The newest event again, to every open socket (a duplicate delivery of the same event). */
  repeatLastEvent(): void {
    const last = this.events[this.events.length - 1];
    if (!last) return;
    for (const { life, socket } of this.sockets) if (life.alive) deliver(socket, last.frame);
  }

  /** Every socket drops (a network change); the engines reconnect by themselves. */
  dropSockets(): void {
    const all = [...this.sockets];
    this.sockets.clear();
    for (const { socket } of all) queueMicrotask(() => socket.onclose?.({}));
  }

  socketFactory(life: Life): (url: string) => SocketLike {
    return (url) => {
      const socket: SocketLike = { send: () => undefined, close: () => undefined, onopen: null, onmessage: null, onclose: null, onerror: null };
      const entry = { life, socket };
      const after = Number(new URL(url).searchParams.get('last_message_id') ?? 0);
      socket.close = () => void this.sockets.delete(entry);
      queueMicrotask(() => {
        if (!life.alive) return;
        if (!this.up) {
          socket.onerror?.({});
          socket.onclose?.({});
          return;
        }
        // As the reference server does: the replay is on its way before anything the client does once open.
        this.sockets.add(entry);
        for (const { id, frame } of this.events) if (id > after) deliver(socket, frame);
        deliver(socket, { action: 'socket_loaded', data: { need_sync: false, last_message_id: this.events.length, epoch: 'e1' } });
        socket.onopen?.({});
      });
      return socket;
    };
  }

  transport(life: Life): HttpTransport {
    return {
      request: async (request) => {
        // A dead engine's calls go nowhere; an answer that comes after its death reaches nobody.
        if (!life.alive) return never();
        const response = this.handle(request, life);
        await Promise.resolve();
        if (!life.alive) return never();
        return response;
      },
      upload: () => Promise.reject(new Error('not used')),
    };
  }

  private handle(request: HttpRequest, life: Life): HttpResponse {
    const { pathname } = new URL(request.url);
    if (!this.up) throw new TypeError('Failed to fetch');
    if (request.method === 'GET') {
      if (pathname === '/v1/me') return answer({ account: { id: SELF, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' } });
      if (pathname === '/v2/conversations') return answer({ conversations: [{ conversation: this.conversation() }] });
      if (pathname === `/v2/conversations/${CHAT}`) return answer({ conversation: this.conversation() });
      if (pathname === `/v2/conversations/${CHAT}/messages`) return answer({ messages: [...this.messages].reverse().slice(0, 20) });
      return answer({ dlrs: [] });
    }
    if (pathname === '/v1/auth/pin/confirm') return answer({ token: 't', user_id: SELF, endpoints: { http: '', ws: '' } });
    const fate = this.fates.shift() ?? 'ok';
    if (fate !== 'ok') this.failedCalls++;
    if (fate === 'drop') throw new TypeError('Failed to fetch');
    let data: unknown;
    if (pathname === `/v2/conversations/${CHAT}/messages`) {
      const key = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'idempotency-key')?.[1] ?? '';
      const body = JSON.parse(request.body ?? '{}') as { client_id: number; message: string };
      this.sendCalls.push({ life: life.n, key, fate });
      const earlier = this.messages.find((m) => m.user_id === SELF && m.client_id === body.client_id && this.keyOf.get(m.id) === key);
      const message = earlier ?? this.message(SELF, body.client_id, body.message.trim());
      if (!earlier) {
        // The reference server reads everything before one's own message (docs/server.md): the read point moves.
        this.readPoint = Math.max(this.readPoint, message.id);
        this.keyOf.set(message.id, key);
        this.created.set(key, (this.created.get(key) ?? 0) + 1);
      }
      data = { message };
    } else {
      const receipt = /^\/v1\/conversations\/(\d+)\/messages\/(\d+)$/.exec(pathname);
      if (!receipt) throw new Error(`the fake server has no ${request.method} ${pathname}`);
      const messageId = Number(receipt[2]);
      const read = new URLSearchParams(request.body ?? '').get('read') === 'true';
      this.receiptCalls.push({ life: life.n, key: `${messageId}:${read ? 'read' : 'delivered'}`, fate });
      if (read) this.readPoint = Math.max(this.readPoint, messageId);
      else this.delivered.add(messageId);
      data = { dlrs: [] };
    }
    if (fate === 'cut') throw new TypeError('Failed to fetch');
    return answer(data);
  }

  private readonly keyOf = new Map<number, string>();
}

function deliver(socket: SocketLike, frame: unknown): void {
  const data = JSON.stringify(frame);
  queueMicrotask(() => socket.onmessage?.({ data }));
}
