import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SOCKET_CLOSE_RESTART } from '../../src/protocol/constants';
import { call, signUp, TEST_PIN, TestSocket, nextPhone } from '../support/server';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Starts `npm start`'s entry point as a real process and resolves with its URL. Node loads it through tsx's
 * loader itself: tsx's command line would run the server as a child of its own, which a SIGKILL of the
 * process we hold leaves running.
 */
function startProcess(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MESSENGER_DEV_PIN: TEST_PIN,
      SEED_DEMO: '0',
      SKIP_CLIENT_BUILD: '1',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('durability', () => {
  it('keeps a message whose send was answered when the server is killed with SIGKILL', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-restart-'));
    dirs.push(dataDir);
    const first = await startProcess(dataDir);
    const anna = await signUp(first.url, 'Anna');
    const erikPhone = nextPhone();
    const created = await call<{ conversation: { id: number } }>(first.url, 'POST', '/v2/conversations', {
      token: anna.token,
      form: { 'member[0][type]': 'phone_nr', 'member[0][value]': erikPhone, 'member[0][name]': 'Erik' },
    });
    const chat = created.data.conversation.id;
    const sent = await call<{ message: { id: number } }>(first.url, 'POST', `/v2/conversations/${chat}/messages`, {
      token: anna.token,
      json: { client_id: 7, message: 'survives a crash' },
    });
    expect(sent.status).toBeLessThan(300);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await startProcess(dataDir);
    try {
      const page = await call<{ messages: { id: number; message: string }[] }>(
        second.url,
        'GET',
        `/v2/conversations/${chat}/messages`,
        { token: anna.token },
      );
      expect(page.data.messages.map((m) => m.message)).toContain('survives a crash');
      // The other side signs up later and finds the chat waiting.
      await call(second.url, 'POST', '/v1/auth/pin', { form: { phone_nr: erikPhone } });
      const erik = await call<{ token: string }>(second.url, 'POST', '/v1/auth/pin/confirm', {
        form: { phone_nr: erikPhone, pin: TEST_PIN },
      });
      const list = await call<{ conversations: { conversation: { id: number } }[] }>(
        second.url,
        'GET',
        '/v2/conversations',
        { token: erik.data.token },
      );
      expect(list.data.conversations.map((c) => c.conversation.id)).toContain(chat);
    } finally {
      second.child.kill('SIGKILL');
    }
  }, 60_000);

  it('drains on SIGTERM: the socket is closed with the restart code and the process exits 0 at once (issue 21)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-restart-'));
    dirs.push(dataDir);
    const node = await startProcess(dataDir);
    try {
      const anna = await signUp(node.url, 'Anna');
      const socket = new TestSocket(node.url, anna.token);
      await socket.loaded();
      const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
      const started = performance.now();
      node.child.kill('SIGTERM');
      expect(await socket.closed).toBe(SOCKET_CLOSE_RESTART);
      expect(await exited).toBe(0);
      // Nothing in flight: it need not wait for DRAIN_TIMEOUT_MS (10 s).
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      node.child.kill('SIGKILL');
    }
  }, 60_000);
});
