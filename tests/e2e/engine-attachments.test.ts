import type { Page } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { startTestServer, type TestServer } from '../support/server';
import {
  CLIENT_DIR,
  current,
  openTab,
  RestartableServer,
  serveClientOnly,
  signedInWithFriend,
  useChromium,
} from '../support/tabs';
import { tcpProxy } from '../support/tcpProxy';

const chromium = useChromium();
let s: RestartableServer | null = null;
let plain: TestServer | null = null;

afterEach(async () => {
  await s?.dispose();
  await plain?.close();
  s = null;
  plain = null;
});

/** Sends a 1×1 PNG padded to `size` bytes through the tab's engine (the File crosses to the worker). */
function sendPng(page: Page, conversationId: number, size: number, text = '') {
  return page.evaluate(
    ([id, n, t]) => {
      const bytes = new Uint8Array(n);
      bytes.set(Array.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082'.match(/../g) ?? [], (hex) => parseInt(hex, 16)));
      const file = new File([bytes], 'photo.png', { type: 'image/png' });
      return window.engine.sendMessage(id, { text: t, file });
    },
    [conversationId, size, text] as const,
  );
}

const attachmentMessages = async (server: TestServer, conversationId: number) =>
  (await server.server.ctx.db.get<{ n: number }>(
    sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${conversationId} AND attachment IS NOT NULL AND type = 'text'`,
  ))!.n;

const uploadedFiles = async (server: TestServer) =>
  (await server.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM files WHERE purpose = 'attachment'`))!.n;

describe('attachments through the shared engine in Chromium', () => {
  it('uploads with XMLHttpRequest from the worker, reporting progress step by step, then sends', async () => {
    plain = await startTestServer({ clientDir: CLIENT_DIR });
    // 12 MB read at 4 MB/s: the socket buffers take the first few MB at once, the rest lasts long enough
    // for several progress events.
    const proxy = await tcpProxy(Number(new URL(plain.url).port), { uploadBytesPerSecond: 4_000_000 });
    const context = await chromium.browser.newContext();
    try {
      const page = await openTab(context, proxy.url);
      const { conversationId } = await signedInWithFriend(page, plain.url, 'Uploader');
      await page.evaluate(() => {
        const seen: number[] = [];
        (window as unknown as { progressSeen: number[] }).progressSeen = seen;
        window.engine.outbox().subscribe((entries) => {
          for (const e of entries) if (e.attachment) seen.push(e.attachment.progress);
        });
      });

      const entry = await sendPng(page, conversationId, 12_000_000, 'a big one');
      expect(entry.attachment).toMatchObject({ name: 'photo.png', mime: 'image/png', kind: 'image', uploaded: null });
      await expect.poll(async () => (await current(page, 'outbox')).length, { timeout: 30_000 }).toBe(0);
      const progress = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
      expect(progress.filter((p) => p > 0 && p < 1).length).toBeGreaterThan(0);
      expect(progress).toContain(1);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));

      const view = await current(page, 'messages', conversationId);
      expect(view.messages.filter((m) => m.message === 'a big one')).toHaveLength(1);
      // Stored re-encoded without the padding (docs/server.md "Uploads"), so smaller than what was sent.
      const sent = view.messages.find((m) => m.message === 'a big one')?.attachment;
      expect(sent).toMatchObject({ type: 'image' });
      expect(sent?.size).toBeLessThan(12_000_000);
      expect(await attachmentMessages(plain, conversationId)).toBe(1);
    } finally {
      await context.close();
      await proxy.close();
    }
  });

  it('sends a file written while the server is down exactly once after it is back, also after a reload', async () => {
    s = await RestartableServer.start();
    const context = await chromium.context();
    const page = await openTab(context, s.url);
    const { conversationId } = await signedInWithFriend(page, s.url, 'Offline');

    await s.stop();
    const clientOnly = await serveClientOnly(s.port);
    try {
      await expect.poll(() => current(page, 'connection')).not.toBe('online');
      const entry = await sendPng(page, conversationId, 50_000);
      expect(entry.status).toBe('pending');
      // Tried and refused by the network at least once before the reload.
      await expect.poll(async () => (await current(page, 'outbox'))[0]?.attempts ?? 0).toBeGreaterThan(0);

      await page.reload();
      const kept = await current(page, 'outbox');
      expect(kept.map((e) => e.localId)).toEqual([entry.localId]);
      expect(kept[0]?.attachment).toMatchObject({ name: 'photo.png', uploaded: null });
    } finally {
      await clientOnly.close();
    }

    const back = await s.restart();
    await expect.poll(async () => (await current(page, 'outbox')).length, { timeout: 30_000 }).toBe(0);
    expect(await attachmentMessages(back, conversationId)).toBe(1);
    expect(await uploadedFiles(back)).toBe(1);
    await page.evaluate((id) => window.engine.openConversation(id), conversationId);
    const view = await current(page, 'messages', conversationId);
    expect(view.messages.filter((m) => m.attachment?.type === 'image')).toHaveLength(1);
  });
});
