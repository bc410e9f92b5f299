import { firstValueFrom, filter, type Observable } from 'rxjs';
import { afterEach, expect } from 'vitest';
import { WebSocket } from 'ws';
import { isEngineError, type SessionView } from '../../../../src/engine/api';
import { Engine } from '../../../../src/engine/engine';
import { createRestClient, fetchTransport, type HttpTransport, type RestClient } from '../../../../src/engine/rest';
import type { SocketLike } from '../../../../src/engine/socket';
import { MemoryStorage } from '../../../../src/engine/storage/storage';
import { nextPhone, TEST_PIN, type TestServer } from '../../../support/server';

/** Engines and REST clients against a real reference server (`useTestServer`), for Node tests. */

/** `ws`'s WebSocket is a SocketLike as it is. */
export const wsFactory = (url: string) => new WebSocket(url) as unknown as SocketLike;

const quiet = () => undefined;

/** The first value of `source` that passes `test`. */
export const until = <T>(source: Observable<T>, test: (value: T) => boolean): Promise<T> =>
  firstValueFrom(source.pipe(filter(test)));

/** A REST client of `apiBase` signed in with `token` (or not, with null). */
export function restClient(apiBase: string, token: string | null, clientToken = 'install-test'): RestClient {
  return createRestClient({
    transport: fetchTransport,
    session: () => ({ apiBase, token }),
    clientToken,
    onUnauthorized: () => {},
  });
}

export interface EngineSetup {
  /** The server's by default. */
  apiBase?: string;
  storage?: MemoryStorage;
  /** The real fetch transport by default. */
  transport?: HttpTransport;
}

export interface SignedIn {
  phone: string;
  userId: number;
}

/**
 * Signs a user in through an engine with the real PIN flow. With a nickname it must be a new user, who
 * registers it; with null, the user already has one (a demo user) or stays without.
 */
export async function signIn(engine: Engine, nickname: string | null, phone = nextPhone()): Promise<SignedIn> {
  await engine.requestPin(phone);
  const confirmed = await engine.confirmPin(phone, TEST_PIN);
  if (confirmed.status === 'unauthenticated') throw new Error('the PIN did not sign in');
  if (nickname === null) return { phone, userId: confirmed.userId };
  expect(confirmed.status).toBe('needsNickname');
  const ready = (await engine.register(nickname)) as Extract<SessionView, { status: 'ready' }>;
  expect(ready).toMatchObject({ status: 'ready', nickname, phone });
  return { phone, userId: ready.userId };
}

/** Starts engines against `server` on demand; every one is stopped after each test. */
export function useEngines(server: TestServer) {
  const engines: Engine[] = [];
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.stop()));
  });

  /** A started engine (signed in when its storage holds a session). */
  async function startEngine(setup: EngineSetup = {}): Promise<Engine> {
    const engine = new Engine({
      storage: setup.storage ?? new MemoryStorage(),
      apiBase: setup.apiBase ?? server.url,
      ...(setup.transport ? { transport: setup.transport } : {}),
      socketFactory: wsFactory,
      log: quiet,
    });
    engines.push(engine);
    await engine.start();
    return engine;
  }

  /** A started engine, signed in (see `signIn`) and online. */
  async function signedInEngine(
    nickname: string | null,
    setup: EngineSetup & { phone?: string } = {},
  ): Promise<SignedIn & { engine: Engine }> {
    const engine = await startEngine(setup);
    const user = await signIn(engine, nickname, setup.phone);
    await until(engine.connection(), (c) => c === 'online');
    return { engine, ...user };
  }

  return { startEngine, signedInEngine };
}

/** The message of the EngineError `promise` rejects with (it fails the test when it resolves or rejects otherwise). */
export async function refusal(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isEngineError(error)) throw new Error(`expected an EngineError, got ${String(error)}`);
  return error.message;
}
