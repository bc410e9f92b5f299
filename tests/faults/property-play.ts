import { firstValueFrom } from 'rxjs';
import { expect } from 'vitest';
import { Engine } from '../../src/engine/engine';
import { MemoryStorage } from '../../src/engine/storage/storage';
import { CHAT, type Fate, FakeServer, FRIEND, Life, SELF, settle, storageForLife, WorldClock } from './property-world';

/**
 * One run of the outbox property (outbox-property.test.ts): `play` drives an Engine in the property world
 * through a list of commands, lets the network heal and time pass; `check` asserts the invariants. The
 * regressions (property-regressions.test.ts) replay the counterexamples it found.
 */

export type Command =
  | { t: 'send' }
  | { t: 'incoming' }
  | { t: 'repeat' }
  | { t: 'dropSocket' }
  | { t: 'server'; up: boolean }
  | { t: 'faults'; fates: Fate[] }
  | { t: 'advance'; ms: number }
  | { t: 'chat'; open: boolean }
  | { t: 'see' }
  | { t: 'reload' }
  | { t: 'crash' };

export interface Outcome {
  server: FakeServer;
  sent: string[];
  /** How each life ended, by its number. */
  ends: Map<number, 'reload' | 'crash'>;
  shown: { id: number; text: string; userId: number }[];
  outbox: number;
}

export async function play(commands: readonly Command[], seed: number): Promise<Outcome> {
  const clock = new WorldClock(seed);
  const server = new FakeServer(clock);
  const storage = new MemoryStorage();
  const ends = new Map<number, 'reload' | 'crash'>();
  const sent: string[] = [];
  let open = false;
  let life = new Life(1);
  let engine = null as unknown as Engine;

  const tab = () => engine.setTabState('tab', { visible: true, focused: true, openConversationId: open ? CHAT : null });
  const boot = async () => {
    engine = new Engine({
      storage: storageForLife(storage, life),
      apiBase: 'http://server.test',
      transport: server.transport(life),
      socketFactory: server.socketFactory(life),
      clock: clock.forLife(life),
      log: () => undefined,
    });
    await engine.start();
    if ((await firstValueFrom(engine.session())).status === 'unauthenticated') await engine.confirmPin('+46700000001', '1234');
    tab();
    if (open) void engine.openConversation(CHAT).catch(() => undefined);
    await settle();
  };
  await boot();

  for (const c of commands) {
    switch (c.t) {
      case 'send': {
        const text = `m${sent.length + 1}`;
        sent.push(text);
        await engine.sendMessage(CHAT, { text });
        break;
      }
      case 'incoming':
        server.incoming(`from the friend ${server.messages.length}`);
        break;
      case 'repeat':
        server.repeatLastEvent();
        break;
      case 'dropSocket':
        server.dropSockets();
        break;
      case 'server':
        server.up = c.up;
        if (!c.up) server.dropSockets();
        break;
      case 'faults':
        server.fates.push(...c.fates);
        break;
      case 'advance':
        await clock.advance(c.ms);
        break;
      case 'chat':
        open = c.open;
        tab();
        if (open) void engine.openConversation(CHAT).catch(() => undefined);
        break;
      case 'see': {
        const newest = server.messages.filter((m) => m.user_id === FRIEND).at(-1);
        if (open && newest) engine.markVisible(CHAT, newest.id);
        break;
      }
      case 'reload':
        await engine.stop();
        ends.set(life.n, 'reload');
        life = new Life(life.n + 1);
        await boot();
        break;
      case 'crash':
        life.alive = false;
        ends.set(life.n, 'crash');
        life = new Life(life.n + 1);
        await boot();
        break;
    }
    await settle();
  }

  // The network heals; the chat is opened (its read receipt goes out) and time passes beyond every back-off.
  server.up = true;
  server.fates = [];
  open = true;
  tab();
  await engine.openConversation(CHAT).catch(() => undefined);
  for (let i = 0; i < 8; i++) await clock.advance(10_000);
  await engine.openConversation(CHAT);
  await clock.advance(1_000);
  const window = await firstValueFrom(engine.messages(CHAT));
  const outbox = (await firstValueFrom(engine.outbox())).length;
  await engine.stop();
  const shown = window.messages.map((m) => ({ id: m.id, text: m.message, userId: m.user_id }));
  return { server, sent, ends, shown, outbox };
}

/** Calls of a key made again after one the server answered, with no crash in between to excuse them. */
function resentAfterAnswer(calls: readonly { life: number; key: string; fate: Fate }[], ends: Map<number, string>): string[] {
  const answeredBy = new Map<string, number>();
  const resent: string[] = [];
  for (const call of calls) {
    const answered = answeredBy.get(call.key);
    if (answered !== undefined) {
      let crashed = false;
      for (let n = answered; n < call.life; n++) crashed ||= ends.get(n) === 'crash';
      if (!crashed) resent.push(`${call.key} (life ${call.life})`);
    }
    if (call.fate === 'ok') answeredBy.set(call.key, call.life);
  }
  return resent;
}

export function check(outcome: Outcome): void {
  const { server, sent, ends, shown, outbox } = outcome;
  const own = server.messages.filter((m) => m.user_id === SELF);
  // Every message acknowledged once: created once, in the order sent, nothing left in the outbox.
  expect(own.map((m) => m.message)).toEqual(sent);
  expect([...server.created.values()].every((n) => n === 1)).toBe(true);
  expect(outbox).toBe(0);
  expect(resentAfterAnswer(server.sendCalls, ends)).toEqual([]);
  // Shown once: the window holds each message once, and every message from its oldest on.
  expect(new Set(shown.map((m) => m.id)).size).toBe(shown.length);
  const oldest = shown[0]?.id ?? Number.POSITIVE_INFINITY;
  expect(shown.map((m) => m.id)).toEqual(server.messages.filter((m) => m.id >= oldest).map((m) => m.id));
  expect(shown.length).toBeGreaterThanOrEqual(Math.min(server.messages.length, 20));
  // Every receipt reaches the server, and is not sent again once it was answered.
  const incoming = server.messages.filter((m) => m.user_id === FRIEND).map((m) => m.id);
  expect(incoming.filter((id) => !server.delivered.has(id) && server.readPoint < id)).toEqual([]);
  expect(server.readPoint).toBeGreaterThanOrEqual(incoming.at(-1) ?? 0);
  expect(server.receiptCalls.filter((c) => own.some((m) => c.key.startsWith(`${m.id}:`)))).toEqual([]);
  expect(resentAfterAnswer(server.receiptCalls, ends)).toEqual([]);
}
