import type { Message } from '../../protocol/entities';
import type { ExportProgress, ExportResult } from '../contract/types';
import type { ExporterOptions } from './exporter';
import { type ExportContext, htmlExport, jsonExport } from './exportFiles';

/** Messages a server page brings (its maximum, spec §9: fewer round trips for a long history). */
const SERVER_PAGE = 100;

export interface ExportRun extends ExporterOptions {
  conversationId: number;
  format: 'html' | 'json';
  source: 'device' | 'server';
  signal: AbortSignal;
  report: (progress: Omit<ExportProgress, 'conversationId'>) => void;
}

/** One export: the chat, its messages from the device or the server, the file. */
export async function runExport(run: ExportRun): Promise<ExportResult> {
  const conversation = await run.conversation(run.conversationId);
  const messages = run.source === 'server' ? await serverHistory(run) : await deviceHistory(run);
  run.signal.throwIfAborted();
  run.report({ phase: 'writing', messages: messages.length });
  const names = new Map<number, string>();
  for (const { user } of conversation.users) names.set(user.user_id ?? user.id, user.nickname || user.phone_nr);
  const exportedAt = run.now();
  const context: ExportContext = { conversation, names, exportedAt, language: run.language(), source: run.source };
  const parts = await written(run.format === 'json' ? jsonExport(context, messages) : htmlExport(context, messages, run.apiBase()), run.signal);
  const type = run.format === 'json' ? 'application/json' : 'text/html';
  return {
    fileName: `${fileStem(conversation.name, run.conversationId)}-${isoDay(exportedAt)}.${run.format}`,
    blob: new Blob(parts, { type: `${type};charset=utf-8` }),
    messages: messages.length,
    format: run.format,
  };
}

/** Parts written between which the worker answers its tabs: about 2,000 messages' worth. */
const SLICE = 2_000;

/**
 * The file's parts, written a slice at a time with a pause between slices, so a 100,000-message export keeps
 * the engine answering every tab's queries and commands while it writes (and can be cancelled between).
 */
async function written(parts: Iterable<string>, signal: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  for (const part of parts) {
    out.push(part);
    if (out.length % SLICE === 0) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      signal.throwIfAborted();
    }
  }
  return out;
}

/**
 * What this device keeps of the chat: the messages of its windows and the pages spilled from them (the
 * `messages` and `history` stores), each once, oldest first.
 */
async function deviceHistory(run: ExportRun): Promise<Message[]> {
  const byId = new Map<number, Message>();
  const keep = (message: Message | null | undefined) => {
    if (message && message.conversation_id === run.conversationId) byId.set(message.id, message);
  };
  for (const { value } of await run.storage.getAll<Message>('messages')) keep(value);
  run.signal.throwIfAborted();
  for (const { value } of await run.storage.getAll<unknown>('history')) {
    if (Array.isArray(value)) for (const message of value as Message[]) keep(message);
  }
  run.report({ phase: 'collecting', messages: byId.size });
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The whole history as the server has it, newest page first (Before), 100 a request, until the first message. */
async function serverHistory(run: ExportRun): Promise<Message[]> {
  const pages: Message[][] = [];
  let count = 0;
  let before: number | undefined;
  for (;;) {
    run.signal.throwIfAborted();
    const { messages } = await run.rest().getMessages(run.conversationId, { count: SERVER_PAGE, ...(before ? { before } : {}) });
    if (messages.length === 0) break;
    pages.push(messages);
    count += messages.length;
    before = messages[0]!.id;
    run.report({ phase: 'collecting', messages: count });
    if (messages.length < SERVER_PAGE) break;
  }
  return pages.reverse().flat();
}

/** A file name from the chat's name: letters, digits and dashes, or the chat's id. */
function fileStem(name: string, id: number): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .toLowerCase();
  return `chat-${stem || id}`;
}

function isoDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
