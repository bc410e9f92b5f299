import { performance } from 'node:perf_hooks';
import { ConversationExporter } from '../../src/engine/export/exporter';
import type { RestCalls } from '../../src/engine/contract/restCalls';
import { MemoryStorage } from '../../src/engine/storage/storage';
import type { Conversation, Message } from '../../src/protocol/entities';
import { type Figure, figure, repeat } from './harness';
import { messages as searchTexts } from './search';
import type { Sizes } from './sizes';
import { message } from '../unit/engine/state.fixtures';

/**
 * Issue 24's export figures: the engine's own export (src/engine/export) in Node, as its worker runs it,
 * over a chat this device keeps whole (the `messages` store), to HTML and to JSON; the baseline is the same
 * over a small chat. The file is made in the worker and crosses to the tab as a Blob (by reference), so the
 * tab's thread does none of this; that half of the target is not measured here.
 */
function chat(count: number): { storage: MemoryStorage; conversation: Conversation; ready: Promise<void> } {
  const storage = new MemoryStorage();
  const users = Array.from({ length: 7 }, (_, i) => ({ user: { id: i + 1, user_id: i + 1, nickname: `User ${i + 1}`, phone_nr: '' }, is_admin: i === 0 }));
  const conversation = { id: 1, name: 'Big group', users } as unknown as Conversation;
  const rows: Message[] = searchTexts(count).map((doc) =>
    message(doc.id, { conversation_id: 1, user_id: doc.userId, message: doc.text, created_at: String(Math.floor(doc.createdAt / 1000)) }),
  );
  const ready = storage.writeBatch(rows.map((m) => ({ store: 'messages', type: 'put', key: String(m.id), value: m })));
  return { storage, conversation, ready };
}

async function exportMs(storage: MemoryStorage, conversation: Conversation, format: 'html' | 'json'): Promise<number> {
  const exporter = new ConversationExporter({
    rest: () => ({}) as RestCalls,
    storage,
    conversation: async () => conversation,
    language: () => 'en',
    apiBase: () => 'https://chat.example',
    now: () => Date.now(),
  });
  const t0 = performance.now();
  const result = await exporter.exportConversation(1, { format });
  // The bytes exist once the Blob is read, as the tab's download reads it.
  await result.blob.arrayBuffer();
  return performance.now() - t0;
}

export async function exportBench(sizes: Sizes): Promise<Figure[]> {
  const big = chat(sizes.exportMessages);
  const small = chat(sizes.exportBaselineMessages);
  await Promise.all([big.ready, small.ready]);
  const runs = await repeat(sizes.runs, async () => ({
    html: await exportMs(big.storage, big.conversation, 'html'),
    htmlBaseline: await exportMs(small.storage, small.conversation, 'html'),
    json: await exportMs(big.storage, big.conversation, 'json'),
    jsonBaseline: await exportMs(small.storage, small.conversation, 'json'),
  }));
  const note =
    'the engine export in Node (the worker does it): read from the device store, write the file, read the Blob; Zipf text of 3–17 words a message';
  return [
    figure({
      benchmark: 'export',
      name: `export: readable HTML of ${sizes.exportMessages} messages (worker)`,
      unit: 'ms',
      runs: runs.map((r) => r.html),
      baseline: { name: `the same, ${sizes.exportBaselineMessages} messages`, runs: runs.map((r) => r.htmlBaseline) },
      note,
    }),
    figure({
      benchmark: 'export',
      name: `export: JSON of ${sizes.exportMessages} messages (worker)`,
      unit: 'ms',
      runs: runs.map((r) => r.json),
      baseline: { name: `the same, ${sizes.exportBaselineMessages} messages`, runs: runs.map((r) => r.jsonBaseline) },
      note,
    }),
  ];
}
