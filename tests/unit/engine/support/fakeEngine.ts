import { firstValueFrom } from 'rxjs';
import type { EngineClock } from '../../../../src/engine/clock';
import { Engine } from '../../../../src/engine/engine';
import type { HttpTransport } from '../../../../src/engine/rest';
import type { SocketLike } from '../../../../src/engine/socket';
import type { MemoryStorage } from '../../../../src/engine/storage/storage';
import type { Conversation, Message } from '../../../../src/protocol/entities';

/** An engine on a hand-moved clock, a scripted transport (chat 7 with Erik) and a socket the test feeds. */

/** A clock the test moves by hand: timers fire only when it advances. */
export class ManualEngineClock implements EngineClock {
  private t = 1_800_000_000_000;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  now = () => this.t;
  random = () => 0;
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((x) => x.id !== handle);
  };
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = due.at;
      due.fn();
      await Promise.resolve();
    }
    this.t = end;
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}

export const ok = (data: unknown) => ({ status: 200, json: async () => ({ success: true, data }) });

export const conversation = { id: 7, stid: 'c_x', name: 'Erik', messages: [], last_message: null, last_message_time: '0', created_at: '1', unread_message_count: 0, is_unread: false } as unknown as Conversation;
export const incoming = (id: number): Message =>
  ({ id, stid: `m_${id}`, client_id: 1, conversation_id: 7, conversation_stid: 'c_x', user_id: 2, message: `hi ${id}`, rich_message: null, type: 'text', created_at: '1800000000', edited_at: 0, updated_at: 0, attachment: null, reactions: [], quoted: null, discussion: null, pinned: false }) as Message;

/** Records every REST call; answers what the engine needs for this scenario. `failReceipts` fails that many first. */
export function recordingTransport(calls: string[], options: { failReceipts?: number } = {}): HttpTransport {
  let failures = options.failReceipts ?? 0;
  return {
    async request({ method, url, body }) {
      const path = new URL(url).pathname;
      calls.push(`${method} ${path}${body && path.includes('/messages/') ? ` ${body}` : ''}`);
      if (path.startsWith('/v1/conversations/7/messages/') && failures > 0) {
        failures -= 1;
        throw new TypeError('network down');
      }
      if (path === '/v1/auth/pin/confirm') return ok({ token: 't', user_id: 1, endpoints: { http: '', ws: '' } });
      if (path === '/v1/me') return ok({ account: { id: 1, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' } });
      if (path === '/v2/conversations') return ok({ conversations: [{ conversation }] });
      if (path === '/v2/conversations/7/messages') return ok({ messages: [] });
      return ok({ dlrs: [] });
    },
    async upload() {
      throw new Error('not used');
    },
  };
}

/** A socket the test feeds frames into. */
export function fakeSocket() {
  let current: SocketLike | null = null;
  /** The URL of every connect, in order. */
  const urls: string[] = [];
  const factory = (url: string) => {
    urls.push(url);
    const s: SocketLike = { send: () => undefined, close: () => undefined, onopen: null, onmessage: null, onclose: null, onerror: null } as unknown as SocketLike;
    current = s;
    queueMicrotask(() => (s.onopen as (() => void) | null)?.());
    return s;
  };
  const push = (frame: unknown) => (current?.onmessage as ((e: { data: string }) => void) | null)?.({ data: JSON.stringify(frame) });
  return { factory, push, urls };
}

export async function signedInEngine(storage: MemoryStorage, calls: string[], clock: ManualEngineClock, failReceipts = 0) {
  const socket = fakeSocket();
  const engine = new Engine({ storage, apiBase: 'http://server.test', transport: recordingTransport(calls, { failReceipts }), socketFactory: socket.factory, clock, log: () => undefined });
  await engine.start();
  if ((await firstValueFrom(engine.session())).status === 'unauthenticated') await engine.confirmPin('+46700000001', '1234');
  await clock.advance(1);
  return { engine, socket, calls };
}

