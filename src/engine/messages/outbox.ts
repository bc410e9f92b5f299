import { BehaviorSubject, type Observable } from 'rxjs';
import { CLIENT_ID_MAX, CLIENT_ID_MIN, MESSAGE_TEXT_MAX } from '../../protocol/constants';
import type { Comment, Message, Participant } from '../../protocol/entities';
import type { EngineClock } from '../clock';
import { engineError, isEngineError } from '../errors';
import type { RestClient } from '../rest';
import { FALLBACKS, INVALID_MESSAGE } from '../rest/fallbacks';
import { RETRY_AFTER_MAX_MS } from '../rest/retryAfter';
import { attachmentKind, attachmentMime, attachmentProblem } from '../rules/attachment';
import { isQuotaError, writeUnlessFull } from '../storage/quotaWatch';
import type { EngineStorage, StorageOp } from '../storage/storage';
import type { CommentTarget, EngineError, OutboxAttachment, OutboxEntry } from '../contract/types';

export interface OutboxDeps {
  storage: EngineStorage;
  rest: () => RestClient;
  clock: EngineClock;
  /** The signed-in user, or null: nothing is sent while signed out. */
  userId: () => number | null;
  /** The server stored the message (its answer); the engine puts it into the state. */
  onStored: (message: Message) => void;
  /** The server stored a comment (its answer); the engine puts it into the communities store. */
  onCommentStored?: (comment: Comment, participants: Participant[]) => void;
  /**
   * Rejects for a chat the engine does not know and the server does not give the user: nothing is queued for
   * a chat that is not there, as it could only fail (docs/ui.md "Sending").
   */
  requireKnown?: (conversationId: number) => Promise<void>;
}

export const RETRY_BASE_MS = 1_000;
export const RETRY_MAX_MS = 30_000;
/** Upload progress reaches the outbox stream at most this often (and at 1), so a big file does not flood it. */
export const PROGRESS_INTERVAL_MS = 250;

/** What a send carries into the outbox. */
export interface OutboxInput {
  conversationId: number;
  text: string;
  quotedMessageId: number | null;
  file?: Blob & { name?: string };
  /** A comment on a post of the channel `conversationId` (text only). */
  comment?: CommentTarget;
}

/** A send refused before it reaches the outbox (spec §5), with the spec's text; 400, as the server would. */
export function refusedSend(call: 'sendMessage' | 'uploadFile', message: string): EngineError {
  return engineError(call, 400, message, message);
}

/**
 * Spec §5 "Sending": text or a file; a file must be an accepted image or video of at most 50 MB. Nothing to
 * send is the catalogue's "Invalid message provided", as for a blank comment: it says what is wrong, where
 * "Failed to send message" would blame the network (issue 23; docs/ui.md).
 */
export function checkSend(text: string, file: OutboxInput['file']): EngineError | null {
  // Text that is no string (a console caller's `{file}` without `text: ''`) is refused here, not failed on `.trim`.
  if (typeof text !== 'string') return refusedSend('sendMessage', INVALID_MESSAGE);
  if (file) {
    const problem = attachmentProblem({ name: file.name ?? '', type: file.type, size: file.size });
    return problem === null ? null : refusedSend('uploadFile', problem);
  }
  // The server's limit and its words: a console caller learns it before anything is queued.
  if (text.trim().length > MESSAGE_TEXT_MAX) return { ...refusedSend('sendMessage', messageTooLong()), code: 'message_too_long' };
  return text.trim() === '' ? refusedSend('sendMessage', INVALID_MESSAGE) : null;
}

/** The server's text for a message over MESSAGE_TEXT_MAX, with its code (docs/server.md "Refusal codes"). */
export const messageTooLong = () => `A message can be at most ${MESSAGE_TEXT_MAX} characters`;

const newLocalId = (clock: EngineClock) =>
  `out_${clock.now().toString(36)}_${Math.floor(clock.random() * 2 ** 48).toString(36)}`;

/**
 * A network failure or a server error is worth retrying, and so are "too many" (429: sent again once the
 * server's Retry-After has passed) and "request timeout" (408); another 4xx answer is final: the tab offers
 * to edit or discard it.
 */
const retryable = (error: EngineError) =>
  error.status === 0 || error.status >= 500 || error.status === 401 || error.status === 408 || error.status === 429;

/**
 * The outbox (issue 3): a send is written to storage before the network call, shown at once as pending,
 * and retried with the same client_id and Idempotency-Key until the server answers, across reconnects and
 * reloads. A refused send is marked failed with its error; the user retries or discards it.
 */
export class Outbox {
  private readonly entries$ = new BehaviorSubject<readonly OutboxEntry[]>([]);
  /** The drain loop while it runs: one at a time, and `stop` waits for it. */
  private draining: Promise<void> | null = null;
  /** A kick that came while a send was in flight: drain again at once instead of waiting out the back-off. */
  private kickRequested = false;
  private stopped = false;
  private retryTimer: unknown = null;
  /** Epoch ms before which nothing is sent: the server answered 429 and asked for this wait (Retry-After). */
  private holdUntil = 0;
  /** The latest createdAt given: sends of the same millisecond still go out in the order they were made. */
  private lastCreatedAt = 0;
  /** The upload in flight, so a discard or a stop can abort it. */
  private uploading: { localId: string; controller: AbortController } | null = null;
  /** Aborts the send in flight when the engine stops. */
  private sendAbort: AbortController | null = null;
  /** The chat checks of the sends being added, in order (`add`). */
  private knownChecks: Promise<unknown> = Promise.resolve();
  /** Files of entries the full store refused (issue 12): sent from memory, as their entries are. */
  private readonly unsavedFiles = new Map<string, Blob>();

  constructor(private readonly deps: OutboxDeps) {}

  get entries(): Observable<readonly OutboxEntry[]> {
    return this.entries$;
  }

  get current(): readonly OutboxEntry[] {
    return this.entries$.value;
  }

  async load(): Promise<void> {
    const stored = await this.deps.storage.getAll<OutboxEntry>('outbox');
    // Entries stored before attachments (or comments) existed have no such field.
    this.set(stored.map((s) => ({ ...s.value, attachment: s.value.attachment ?? null, comment: s.value.comment ?? null })));
    for (const entry of this.current) this.lastCreatedAt = Math.max(this.lastCreatedAt, entry.createdAt);
    this.kick();
  }

  /** Rejects with an EngineError (spec §5 texts) for an empty send or a file that may not be sent. */
  async add(input: OutboxInput): Promise<OutboxEntry> {
    const refusal = checkSend(input.text, input.file);
    if (refusal) throw refusal;
    const before = this.deps.userId();
    // Sends belong to an account: signed out there is none to queue it for (401, as the server would say).
    if (before === null) throw engineError('sendMessage', 401, null, FALLBACKS.sendMessage);
    // A comment's channel is checked by the community part, which knows the channels. The checks run one after
    // another, so sends are queued in the order they were made even when one has to ask the server.
    const check = this.knownChecks.then(() => (input.comment ? undefined : this.deps.requireKnown?.(input.conversationId)));
    this.knownChecks = check.catch(() => undefined);
    await check;
    // Signed out (or another account signed in) while the chat was asked for: not this account's send any more.
    const userId = this.deps.userId();
    if (userId !== before) throw engineError('sendMessage', 401, null, FALLBACKS.sendMessage);
    const { clock } = this.deps;
    const { file } = input;
    const facts = file ? { name: file.name ?? '', type: file.type, size: file.size } : null;
    const entry: OutboxEntry = {
      localId: newLocalId(clock),
      userId,
      conversationId: input.conversationId,
      comment: input.comment ?? null,
      clientId: CLIENT_ID_MIN + Math.floor(clock.random() * (CLIENT_ID_MAX - CLIENT_ID_MIN + 1)),
      text: input.text,
      quotedMessageId: input.quotedMessageId,
      attachment: facts
        ? {
            name: facts.name,
            mime: attachmentMime(facts),
            size: facts.size,
            kind: attachmentKind(facts),
            progress: 0,
            uploaded: null,
          }
        : null,
      createdAt: (this.lastCreatedAt = Math.max(clock.now(), this.lastCreatedAt + 1)),
      status: 'pending',
      error: null,
      attempts: 0,
    };
    // Stored before anything goes on the network, the bytes in the same transaction: a send survives a
    // crash from here on, file and all.
    const ops: StorageOp[] = [{ store: 'outbox', type: 'put', key: entry.localId, value: entry }];
    if (file) ops.push({ store: 'files', type: 'put', key: entry.localId, value: file });
    try {
      await this.deps.storage.writeBatch(ops);
    } catch (error) {
      // A full store (issue 12) must not lose what was typed: the send goes out from memory. Only an engine
      // that ends before it is sent loses it, which the engine's storage status tells the user.
      if (!isQuotaError(error)) throw error;
      if (file) this.unsavedFiles.set(entry.localId, file);
    }
    this.set([...this.current, entry]);
    this.kick();
    return entry;
  }

  async retrySend(localId: string): Promise<void> {
    const entry = this.current.find((e) => e.localId === localId);
    if (!entry || entry.status !== 'failed') return;
    await this.replace({ ...entry, status: 'pending', error: null });
    this.kick();
  }

  async discardSend(localId: string): Promise<void> {
    await this.remove(localId);
    // An upload of it in flight has nothing left to send for.
    if (this.uploading?.localId === localId) this.uploading.controller.abort();
  }

  /** Our own message came back (socket echo or answer): the pending entry it settles goes away. */
  async settle(message: Message): Promise<void> {
    const entry = this.current.find(
      (e) =>
        e.comment === null &&
        e.conversationId === message.conversation_id &&
        e.clientId === message.client_id &&
        e.text.trim() === message.message &&
        e.userId === message.user_id,
    );
    if (entry) await this.remove(entry.localId);
  }

  /** Our own comment came back (`channel_post_comment_added`): the pending comment it settles goes away. */
  async settleComment(comment: Comment): Promise<void> {
    const entry = this.current.find(
      (e) =>
        e.comment !== null &&
        e.conversationId === comment.channel_id &&
        e.comment.postId === comment.post_id &&
        e.comment.parentCommentId === comment.parent_comment_id &&
        e.clientId === comment.client_id &&
        e.text.trim() === comment.message &&
        e.userId === comment.user_id,
    );
    if (entry) await this.remove(entry.localId);
  }

  /** Connection came back: try the pending sends now instead of waiting for the back-off. */
  kick(): void {
    if (this.retryTimer !== null) {
      this.deps.clock.clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    void this.drain();
  }

  /**
   * The engine is going away: what is in flight is aborted, no retry fires after it, and the entries stay
   * in storage as they are. Resolves once nothing of this outbox sends or writes any more, so another
   * engine may take the outbox over (issue 14). A send the server committed before the abort is answered
   * as a retry when the next engine sends it again with the same Idempotency-Key.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.uploading?.controller.abort();
    this.sendAbort?.abort();
    if (this.retryTimer !== null) this.deps.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.draining;
  }

  /** Sign-out: another account's sends must never go out under a new one. */
  async clear(): Promise<void> {
    this.uploading?.controller.abort();
    await this.deps.storage.writeBatch([
      { store: 'outbox', type: 'clear' },
      { store: 'files', type: 'clear' },
    ]);
    this.unsavedFiles.clear();
    this.set([]);
  }

  private drain(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.draining) {
      this.kickRequested = true;
      return this.draining;
    }
    this.kickRequested = false;
    const run = this.sendPending().finally(() => {
      this.draining = null;
      if (this.kickRequested) this.kick();
    });
    this.draining = run;
    return run;
  }

  /** One at a time, oldest first: messages reach the server in the order they were typed. */
  private async sendPending(): Promise<void> {
    while (!this.stopped) {
      const userId = this.deps.userId();
      const next = this.current.find((e) => e.status === 'pending' && e.userId === userId);
      if (!next) return;
      // A kick (a reconnect, a new send) does not cut the server's Retry-After short.
      const held = this.holdUntil - this.deps.clock.now();
      if (held > 0) {
        this.scheduleRetry(held);
        return;
      }
      const delivered = await this.sendOne(next);
      if (!delivered) return;
    }
  }

  /** Sends one entry; false when it must wait (retry scheduled). */
  private async sendOne(first: OutboxEntry): Promise<boolean> {
    let entry = first;
    // Made before anything goes out, so a stop at any point (even between the upload and the send) aborts it.
    const abort = (this.sendAbort = new AbortController());
    const stoppedNow = () => {
      if (this.stopped) throw new DOMException('the outbox stopped', 'AbortError');
    };
    try {
      // A file goes up first; once the server has it (persisted), a retry only sends the message.
      if (entry.attachment && !entry.attachment.uploaded) entry = await this.upload(entry, entry.attachment);
      stoppedNow();
      if (entry.comment) {
        const { comment, participants } = await this.deps.rest().createComment(entry.conversationId, {
          postId: entry.comment.postId,
          message: entry.text,
          ...(entry.comment.parentCommentId !== null ? { parentCommentId: entry.comment.parentCommentId } : {}),
          clientId: entry.clientId,
          idempotencyKey: entry.localId,
          signal: abort.signal,
        });
        this.deps.onCommentStored?.(comment, participants);
        await this.remove(entry.localId);
        return true;
      }
      const uploaded = entry.attachment?.uploaded ?? null;
      const { message } = await this.deps.rest().sendMessage(entry.conversationId, {
        clientId: entry.clientId,
        message: entry.text,
        ...(uploaded ? { attachment: { type: uploaded.type, fileId: uploaded.id } } : {}),
        ...(entry.quotedMessageId !== null ? { quotedMessageId: entry.quotedMessageId } : {}),
        idempotencyKey: entry.localId,
        signal: abort.signal,
      });
      // The message joins the chat before the pending row leaves it, so it never blinks out.
      this.deps.onStored(message);
      await this.remove(entry.localId);
      return true;
    } catch (error) {
      // Stopped mid-send: the entry stays in storage as it is, for the next engine.
      if (this.stopped) return false;
      if (!this.current.some((e) => e.localId === entry.localId)) return true;
      const engineError = isEngineError(error) ? error : null;
      if (engineError && !retryable(engineError)) {
        await this.replace({ ...entry, status: 'failed', error: engineError, attempts: entry.attempts + 1 });
        return true;
      }
      const attempts = entry.attempts + 1;
      await this.replace({ ...entry, attempts });
      const backOff = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attempts - 1, 10));
      const tooMany = engineError?.status === 429;
      // At most RETRY_AFTER_MAX_MS: a wrong wait must not hold the outbox for days.
      const delay = tooMany ? Math.min(RETRY_AFTER_MAX_MS, engineError.retryAfterMs ?? backOff) : backOff;
      if (tooMany) this.holdUntil = this.deps.clock.now() + delay;
      this.scheduleRetry(delay);
      return false;
    }
  }

  private scheduleRetry(delay: number): void {
    if (this.retryTimer !== null) this.deps.clock.clearTimeout(this.retryTimer);
    this.retryTimer = this.deps.clock.setTimeout(() => {
      this.retryTimer = null;
      void this.drain();
    }, delay);
  }

  /** Uploads an entry's file with its progress shown; resolves with the entry as stored after the upload. */
  private async upload(entry: OutboxEntry, attachment: OutboxAttachment): Promise<OutboxEntry> {
    const file = this.unsavedFiles.get(entry.localId) ?? (await this.deps.storage.get<Blob>('files', entry.localId));
    if (this.stopped) throw new DOMException('the outbox stopped', 'AbortError');
    // The bytes are gone (storage evicted, or cleared by hand): no retry can bring them back.
    if (!file) throw refusedSend('uploadFile', FALLBACKS.uploadFile);
    const controller = new AbortController();
    this.uploading = { localId: entry.localId, controller };
    let shownAt = -Infinity;
    let shown = attachment.progress;
    try {
      const { file: uploaded } = await this.deps.rest().uploadFile(file, {
        fileName: attachment.name || 'upload',
        signal: controller.signal,
        onProgress: (loaded, total) => {
          const progress = total > 0 ? Math.min(1, loaded / total) : 0;
          const now = this.deps.clock.now();
          if (progress === shown || (progress < 1 && now - shownAt < PROGRESS_INTERVAL_MS)) return;
          shownAt = now;
          shown = progress;
          this.show(entry.localId, (e) => (e.attachment ? { ...e, attachment: { ...e.attachment, progress } } : e));
        },
      });
      const stored = this.current.find((e) => e.localId === entry.localId);
      // Discarded while uploading: nothing may be sent for it (the caller sees it gone and moves on).
      if (!stored?.attachment) throw refusedSend('uploadFile', FALLBACKS.uploadFile);
      const next: OutboxEntry = { ...stored, attachment: { ...stored.attachment, progress: 1, uploaded } };
      await this.replace(next);
      return next;
    } catch (error) {
      // Progress starts again with the next attempt.
      this.show(entry.localId, (e) => (e.attachment ? { ...e, attachment: { ...e.attachment, progress: 0 } } : e));
      throw error;
    } finally {
      if (this.uploading?.controller === controller) this.uploading = null;
    }
  }

  /** Changes an entry in the stream only (progress is not worth a storage write). */
  private show(localId: string, change: (entry: OutboxEntry) => OutboxEntry): void {
    if (!this.current.some((e) => e.localId === localId)) return;
    this.set(this.current.map((e) => (e.localId === localId ? change(e) : e)));
  }

  private async replace(entry: OutboxEntry): Promise<void> {
    await this.keep([{ store: 'outbox', type: 'put', key: entry.localId, value: entry }]);
    this.set(this.current.map((e) => (e.localId === entry.localId ? entry : e)));
  }

  private async remove(localId: string): Promise<void> {
    if (!this.current.some((e) => e.localId === localId)) return;
    // Off the stream before the write: the server's message is already in the chat, and a pending row
    // beside it for the length of a storage write would show the message twice. Should the write be
    // lost, a reload resends the entry with its Idempotency-Key, which the server answers with the same message.
    this.set(this.current.filter((e) => e.localId !== localId));
    this.unsavedFiles.delete(localId);
    await this.keep([
      { store: 'outbox', type: 'delete', key: localId },
      { store: 'files', type: 'delete', key: localId },
    ]);
  }

  /** Writes an entry's change, kept in memory when the store is full (writeUnlessFull). */
  private keep(ops: StorageOp[]): Promise<void> {
    return writeUnlessFull(this.deps.storage, ops);
  }

  private set(entries: readonly OutboxEntry[]): void {
    this.entries$.next([...entries].sort((a, b) => a.createdAt - b.createdAt || (a.localId < b.localId ? -1 : 1)));
  }
}
