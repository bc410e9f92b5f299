import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type AdminIo, EXIT_ERROR, EXIT_OK } from '../../server/admin/command';
import { backup } from '../../server/backup/backup';
import { runRestore } from '../../server/backup/cli';
import type { BackupManifest } from '../../server/backup/manifest';
import { schemaOf } from '../../server/backup/postgres';
import { sql } from '../../server/db/store';
import { TEST_PIN, call, signUp, startTestServer } from '../support/server';
import { testDatabaseUrl } from '../support/postgresSchema';

/** docs/server.md "Backups": back up while the server writes, wipe, restore, sign in, and everything is there. */

const root = path.resolve(import.meta.dirname, '../..');
// A whole 1×1 PNG: the server decodes every picture it keeps (docs/server.md "Uploads").
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `messenger-${name}-`));
  dirs.push(dir);
  return dir;
};

async function storeEnv(dataDir: string): Promise<NodeJS.ProcessEnv> {
  const databaseUrl = await testDatabaseUrl(dataDir);
  return { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
}

/** `npm run backup -- <dir>` as its own process, as an operator runs it beside the server. */
function backupProcess(env: NodeJS.ProcessEnv, dir: string): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/backup/cli.ts', 'backup', dir], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

const quietIo = (env: NodeJS.ProcessEnv, lines: string[]): AdminIo => ({ env, out: (l) => lines.push(l), err: (l) => lines.push(l) });

describe('backup and restore', () => {
  it('backs up while the server writes; after a wipe the restore has the history and the attachment, and one can sign in', async () => {
    const dataDir = tempDir('backup-data');
    const env = await storeEnv(dataDir);
    const first = await startTestServer({}, { keepDataDir: dataDir });
    const anna = await signUp(first.url, 'Anna');
    const erik = await signUp(first.url, 'Erik');
    const chat = (
      await call<{ conversation: { id: number } }>(first.url, 'POST', '/v2/conversations', {
        token: anna.token,
        form: { 'member[0][type]': 'phone_nr', 'member[0][value]': erik.phone },
      })
    ).data.conversation.id;
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'photo.png');
    const file = (await call<{ file: { id: string } }>(first.url, 'POST', '/v2/filestorage/file', { token: anna.token, body })).data.file;
    const withPicture = await call<{ message: { attachment: { url: string } } }>(first.url, 'POST', `/v2/conversations/${chat}/messages`, {
      token: anna.token,
      json: { client_id: 1, message: 'a picture', attachment: { type: 'image', files: [{ id: file.id }] } },
    });
    const pictureUrl = withPicture.data.message.attachment.url;
    // The stored picture is the server's clean re-encoding of the upload: the restore must give back those bytes.
    const stored = Buffer.from(await (await fetch(first.url + pictureUrl)).arrayBuffer());
    let sent = 0;
    const send = async () => {
      const n = sent + 1;
      await call(first.url, 'POST', `/v2/conversations/${chat}/messages`, { token: erik.token, json: { client_id: 100 + n, message: `m${n}` } }).then((r) => r.data);
      sent = n;
    };
    for (let i = 0; i < 5; i++) await send();
    const sentBefore = sent;

    // The server keeps taking messages while the backup runs in a process of its own.
    const backupDir = tempDir('backup-target');
    let running = true;
    const backingUp = backupProcess(env, backupDir).finally(() => (running = false));
    while (running) await send();
    const result = await backingUp;
    expect(result.out).toContain('Backed up to');
    expect(result.code).toBe(0);
    // The server did take messages while the backup ran.
    expect(sent).toBeGreaterThan(sentBefore);
    for (let i = 0; i < 3; i++) await send();
    await first.close();

    const [folderName] = readdirSync(backupDir);
    const folder = path.join(backupDir, folderName as string);
    const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as BackupManifest;
    // The picture and its thumbnail (docs/server.md "Uploads"): both are uploaded files.
    expect(manifest).toMatchObject({ format: 1, store: env.DATABASE_URL ? 'postgres' : 'sqlite', files: { copied: 2, missing: [] } });
    expect(manifest.counts.users).toBe(2);
    expect(existsSync(path.join(folder, env.DATABASE_URL ? 'postgres.dump' : 'messenger.db'))).toBe(true);

    // Restoring over the data the server still has is refused, and changes nothing.
    const lines: string[] = [];
    expect(await runRestore([folder], quietIo(env, lines))).toBe(EXIT_ERROR);
    expect(lines[0]).toMatch(/not empty|exists/);

    // Wipe: the database and the uploaded files are gone.
    rmSync(path.join(dataDir, 'files'), { recursive: true, force: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(path.join(dataDir, `messenger.db${suffix}`), { force: true });
    if (env.DATABASE_URL) {
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA ${schemaOf(env.DATABASE_URL) as string} CASCADE`);
      await client.end();
    }
    expect(await runRestore([folder], quietIo(env, lines))).toBe(EXIT_OK);

    const second = await startTestServer({}, { keepDataDir: dataDir });
    try {
      await call(second.url, 'POST', '/v1/auth/pin', { form: { phone_nr: anna.phone } }).then((r) => r.data);
      const signedIn = await call<{ token: string; user_id: number }>(second.url, 'POST', '/v1/auth/pin/confirm', {
        form: { phone_nr: anna.phone, pin: TEST_PIN },
      });
      expect(signedIn.data.user_id).toBe(anna.id);
      const token = signedIn.data.token;
      // The history as the app pages it (its latest page), and all of it in the restored store.
      const page = (
        await call<{ messages: { message: string }[] }>(second.url, 'GET', `/v2/conversations/${chat}/messages`, { token })
      ).data.messages.map((m) => m.message);
      const history = (
        await second.server.ctx.db.all<{ message: string }>(sql`SELECT message FROM messages WHERE conversation_id = ${chat} ORDER BY id`)
      ).map((m) => m.message);
      expect(page).toEqual(history.slice(-page.length));
      const texts = history.filter((m) => /^m\d+$/.test(m)).map((m) => Number(m.slice(1))).sort((a, b) => a - b);
      // A consistent copy: every message answered before the backup began, then an unbroken run of those sent
      // during it, and nothing sent after it ended.
      expect(texts.length).toBeGreaterThanOrEqual(sentBefore);
      expect(texts).toEqual(Array.from({ length: texts.length }, (_, i) => i + 1));
      expect(texts.length).toBeLessThanOrEqual(sent - 3);
      expect(history).toContain('a picture');
      expect(history.length).toBe(manifest.counts.messages);
      const picture = await fetch(second.url + pictureUrl);
      expect(picture.status).toBe(200);
      expect(Buffer.from(await picture.arrayBuffer()).equals(stored)).toBe(true);
    } finally {
      await second.close();
    }
  }, 60_000);

  it('never writes a backup over another', async () => {
    const dataDir = tempDir('backup-twice');
    const env = await storeEnv(dataDir);
    const server = await startTestServer({}, { keepDataDir: dataDir });
    try {
      const target = tempDir('backup-twice-target');
      const at = new Date('2026-12-08T01:00:00Z');
      await backup(target, env, at);
      await expect(backup(target, env, at)).rejects.toThrow('a backup is never written over another');
      // A backup that fails (here: a data directory without a database) leaves nothing that looks like one.
      const empty = tempDir('backup-nothing');
      const failedTarget = tempDir('backup-failed-target');
      await expect(backup(failedTarget, await storeEnv(empty), at)).rejects.toThrow();
      expect(readdirSync(failedTarget)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
