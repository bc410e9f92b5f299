import { BehaviorSubject, distinctUntilChanged, map, type Observable } from 'rxjs';
import type { ExportOptions, ExportProgress, ExportResult } from '../contract/types';
import type { RestCalls } from '../contract/restCalls';
import type { Conversation } from '../../protocol/entities';
import { engineError } from '../errors';
import { INVALID_PARAMETERS } from '../rest/fallbacks';
import type { EngineStorage } from '../storage/storage';

export interface ExporterOptions {
  rest: () => RestCalls;
  storage: EngineStorage;
  /** The chat with its members: the engine's copy when it has one, else the server's. */
  conversation: (conversationId: number) => Promise<Conversation>;
  language: () => 'en' | 'sv';
  apiBase: () => string;
  now: () => number;
}

/**
 * "Export chat" (issue 24): one export per chat at a time, its progress a query every tab can show, and a
 * cancel. The work itself (exportRun.ts: reading the device's history or paging the server's, writing the
 * file) is a chunk of its own, loaded on the first export, and runs here, in the engine's worker, in slices,
 * so no tab's thread is busy with it however long the chat.
 */
export class ConversationExporter {
  private readonly progress$ = new BehaviorSubject<ReadonlyMap<number, ExportProgress>>(new Map());
  private readonly running = new Map<number, AbortController>();

  constructor(private readonly options: ExporterOptions) {}

  exportProgress(conversationId: number): Observable<ExportProgress | null> {
    return this.progress$.pipe(
      map((all) => all.get(conversationId) ?? null),
      distinctUntilChanged(),
    );
  }

  async exportConversation(conversationId: number, options: ExportOptions = {}): Promise<ExportResult> {
    const format = options.format ?? 'html';
    const source = options.source ?? 'device';
    if (
      !(Number.isSafeInteger(conversationId) && conversationId > 0) ||
      (format !== 'html' && format !== 'json') ||
      (source !== 'device' && source !== 'server')
    ) {
      throw engineError('exportConversation', 400, null, INVALID_PARAMETERS);
    }
    // A second export of the same chat replaces the first, as pressing Export again would mean.
    this.running.get(conversationId)?.abort();
    const abort = new AbortController();
    this.running.set(conversationId, abort);
    let reportedAt = -Infinity;
    const report = (progress: Omit<ExportProgress, 'conversationId'>) => {
      if (this.running.get(conversationId) !== abort && progress.phase !== 'cancelled') return;
      // A count per server page would be 1,000 renders in every tab showing it for 100,000 messages: a few a second are enough.
      const now = this.options.now();
      const previous = this.progress$.value.get(conversationId);
      if (progress.phase === 'collecting' && previous?.phase === 'collecting' && now - reportedAt < PROGRESS_EVERY_MS) return;
      reportedAt = now;
      const next = new Map(this.progress$.value);
      next.set(conversationId, { conversationId, ...progress });
      this.progress$.next(next);
    };
    report({ phase: 'collecting', messages: 0 });
    try {
      const { runExport } = await import('./exportRun');
      const result = await runExport({ ...this.options, conversationId, format, source, signal: abort.signal, report });
      report({ phase: 'done', messages: result.messages });
      return result;
    } catch (error) {
      report({ phase: abort.signal.aborted ? 'cancelled' : 'failed', messages: 0 });
      if (abort.signal.aborted) throw engineError('exportConversation', 499, null, EXPORT_CANCELLED);
      throw error;
    } finally {
      if (this.running.get(conversationId) === abort) this.running.delete(conversationId);
    }
  }

  cancelExport(conversationId: number): void {
    this.running.get(conversationId)?.abort();
  }
}

/** The collecting count is reported at most this often (the phase's first report and every change of phase at once). */
export const PROGRESS_EVERY_MS = 250;

/** What a cancelled export rejects with (the UI says it its own way: the user cancelled it). */
export const EXPORT_CANCELLED = 'Export cancelled';
