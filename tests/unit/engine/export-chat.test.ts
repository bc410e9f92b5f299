import { describe, expect, it } from 'vitest';
import { ConversationExporter, PROGRESS_EVERY_MS } from '../../../src/engine/export/exporter';
import { escapeHtml } from '../../../src/engine/export/exportFiles';
import type { RestCalls } from '../../../src/engine/contract/restCalls';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import type { Conversation, Message } from '../../../src/protocol/entities';
import type { ExportProgress } from '../../../src/engine/contract/types';
import { message as fixtureMessage } from './state.fixtures';

/** "Export chat" (issue 24): the files, from the device or from the server, with progress and cancel. */
const T0 = Date.UTC(2026, 2, 3, 9); // 3 March 2026, 09:00 UTC

const conversation = {
  id: 7,
  name: 'Kafé <Crew>',
  users: [
    { user: { id: 1, user_id: 1, nickname: 'Anna', phone_nr: '+46700000001' }, is_admin: true },
    { user: { id: 2, user_id: 2, nickname: 'Bo "B"', phone_nr: '+46700000002' }, is_admin: false },
  ],
} as unknown as Conversation;

const message = (id: number, text: string, extra: Partial<Message> = {}): Message =>
  fixtureMessage(id, {
    conversation_id: 7,
    user_id: id % 2 ? 1 : 2,
    message: text,
    created_at: String(Math.floor((T0 + id * 60_000) / 1000)),
    ...extra,
  });

const HOSTILE = `<script>alert(1)</script><img src="https://evil.example/x.png" onerror="alert(2)"> & "quotes" 'too' ‮reversed`;

function exporter(storage = new MemoryStorage(), pages: Message[][] = [], rest?: Partial<RestCalls>, clock = { now: T0 + 86_400_000, perPage: 0 }) {
  const asked: (number | undefined)[] = [];
  const calls = {
    getMessages: async (_id: number, page?: { before?: number }) => {
      asked.push(page?.before);
      clock.now += clock.perPage;
      const all = pages.flat();
      const older = all.filter((m) => page?.before === undefined || m.id < page.before);
      return { messages: older.slice(-100) };
    },
    ...rest,
  } as unknown as RestCalls;
  const e = new ConversationExporter({
    rest: () => calls,
    storage,
    conversation: async () => conversation,
    language: () => 'en',
    apiBase: () => 'https://chat.example',
    now: () => clock.now,
  });
  return { e, asked };
}

describe('exportConversation', () => {
  it('writes HTML that shows hostile text as text and loads nothing', async () => {
    const storage = new MemoryStorage();
    await storage.writeBatch([
      { store: 'messages', type: 'put', key: '3', value: message(3, HOSTILE) },
      { store: 'messages', type: 'put', key: '99', value: { ...message(99, 'another chat'), conversation_id: 8 } },
      {
        store: 'history',
        type: 'put',
        key: '7:1',
        value: [
          message(1, 'Hej'),
          message(2, 'look', { attachment: { type: 'image', url: '/files/a.png', name: 'a<b>.png' } as Message['attachment'] }),
          message(4, 'bad link', { attachment: { type: 'image', url: 'javascript:alert(3)', name: 'x' } as Message['attachment'] }),
        ],
      },
    ]);
    const { e } = exporter(storage);
    const result = await e.exportConversation(7, { format: 'html' });
    expect(result).toMatchObject({ messages: 4, format: 'html', fileName: 'chat-kafe-crew-2026-03-04.html' });
    const html = await result.blob.text();
    expect(result.blob.type).toBe('text/html;charset=utf-8');
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    // The hostile markup is there as text only: no element that runs or loads anything.
    expect(html).not.toMatch(/<(script|img|iframe|link|object|embed|video|audio|source)\b/i);
    expect(html).toContain(escapeHtml(HOSTILE));
    expect(html).toContain('<title>Kaf&#233; &#60;Crew&#62;</title>'.replace('&#233;', 'é'));
    expect(html).toContain('<a href="https://chat.example/files/a.png">Attachment: a&#60;b&#62;.png</a>');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('Bo &#34;B&#34;');
    // Oldest first, each once, this chat's only.
    expect([...html.matchAll(/id="m(\d+)"/g)].map((m) => Number(m[1]))).toEqual([1, 2, 3, 4]);
    expect(html).toMatch(/<h2>Tuesday,? 3 March 2026<\/h2>/);
    // A right-to-left override in someone's text ends with their text (<bdi>), not with the rest of the page.
    expect(html).toContain(`<bdi>${escapeHtml(HOSTILE)}</bdi><time`);
  });

  it('says a message deleted for everybody was deleted, with who and when (docs/ui.md "Deleted messages")', async () => {
    const storage = new MemoryStorage();
    await storage.writeBatch([
      { store: 'messages', type: 'put', key: '1', value: message(1, 'Hej') },
      { store: 'messages', type: 'put', key: '2', value: message(2, '', { deleted: true }) },
    ]);
    const html = await (await exporter(storage).e.exportConversation(7, { format: 'html' })).blob.text();
    expect(html).toMatch(/<p class="m s" id="m2"><span class="w"><bdi>Bo &#34;B&#34;<\/bdi><\/span>This message was deleted<time class="t" datetime="2026-03-03T09:02:00.000Z">/);
  });

  it('writes JSON with every field, parsable, from the whole server history page by page', async () => {
    const all = Array.from({ length: 250 }, (_, i) => message(i + 1, `#${i + 1}`));
    const { e, asked } = exporter(new MemoryStorage(), [all]);
    const seen: (ExportProgress | null)[] = [];
    const sub = e.exportProgress(7).subscribe((p) => seen.push(p));
    const result = await e.exportConversation(7, { format: 'json', source: 'server' });
    sub.unsubscribe();
    // A short page is the first message's: no request after it.
    expect(asked).toEqual([undefined, 151, 51]);
    const parsed = JSON.parse(await result.blob.text()) as { source: string; conversation: { id: number }; messages: Message[] };
    expect(parsed.source).toBe('server');
    expect(parsed.conversation.id).toBe(7);
    expect(parsed.messages).toEqual(all);
    expect(seen[0]).toBeNull();
    // The three pages came within the same instant: the count is not reported more often than PROGRESS_EVERY_MS.
    expect(seen.map((p) => p?.phase ?? null)).toEqual([null, 'collecting', 'writing', 'done']);
    expect(seen.at(-1)).toEqual({ conversationId: 7, phase: 'done', messages: 250 });
  });

  it('reports the count of a long server history a few times a second, not once per page', async () => {
    const all = Array.from({ length: 3_000 }, (_, i) => message(i + 1, `#${i + 1}`));
    const clock = { now: T0, perPage: 100 };
    const { e, asked } = exporter(new MemoryStorage(), [all], undefined, clock);
    const seen: { at: number; progress: ExportProgress }[] = [];
    const sub = e.exportProgress(7).subscribe((p) => {
      if (p) seen.push({ at: clock.now, progress: p });
    });
    const result = await e.exportConversation(7, { format: 'json', source: 'server' });
    sub.unsubscribe();
    expect(result.messages).toBe(3_000);
    const collecting = seen.filter((s) => s.progress.phase === 'collecting');
    // 31 pages 100 ms apart: the first report, then one every third page (300 ms), not 31.
    expect(asked).toHaveLength(31);
    expect(collecting.map((s) => s.progress.messages)).toEqual([0, 300, 600, 900, 1200, 1500, 1800, 2100, 2400, 2700, 3000]);
    for (let i = 1; i < collecting.length; i++) expect(collecting[i]!.at - collecting[i - 1]!.at).toBeGreaterThanOrEqual(PROGRESS_EVERY_MS);
    expect(seen.map((s) => s.progress.phase).slice(-2)).toEqual(['writing', 'done']);
  });

  it('pauses between slices of a long chat, so the worker keeps answering its tabs', async () => {
    const storage = new MemoryStorage();
    await storage.writeBatch(
      Array.from({ length: 10_000 }, (_, i) => ({ store: 'messages' as const, type: 'put' as const, key: String(i + 1), value: message(i + 1, `#${i + 1}`) })),
    );
    const { e } = exporter(storage);
    await e.exportConversation(7, { format: 'json' }); // the writer's chunk is loaded before counting
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    const result = await e.exportConversation(7, { format: 'html' });
    clearInterval(timer);
    expect(result.messages).toBe(10_000);
    // 10,000 messages and their day headings, 2,000 parts a slice: a pause after each slice.
    expect(turns).toBeGreaterThanOrEqual(4);
  });

  it('stops when cancelled, and refuses bad options', async () => {
    let release: () => void = () => undefined;
    const { e } = exporter(new MemoryStorage(), [], {
      getMessages: () =>
        new Promise((resolve) => {
          release = () => resolve({ messages: [message(1, 'x')] } as never);
        }),
    });
    const running = e.exportConversation(7, { source: 'server' });
    await new Promise((r) => setTimeout(r, 10));
    await e.cancelExport(7);
    release();
    await expect(running).rejects.toMatchObject({ message: 'Export cancelled' });
    const last = await new Promise<ExportProgress | null>((resolve) => e.exportProgress(7).subscribe(resolve).unsubscribe());
    expect(last?.phase).toBe('cancelled');
    await expect(e.exportConversation(7, { format: 'pdf' as 'html' })).rejects.toMatchObject({ message: 'Invalid parameters provided' });
    await expect(e.exportConversation(0)).rejects.toMatchObject({ message: 'Invalid parameters provided' });
  });
});
