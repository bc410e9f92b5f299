import { BehaviorSubject, type Observable } from 'rxjs';
import { CLIENT_ID_MAX, CLIENT_ID_MIN } from '../protocol/constants';
import type { Message, UploadedFile } from '../protocol/entities';
import type { EngineClock } from './clock';
import { type EngineError, isEngineError } from './errors';
import type { RestClient } from './rest';
import type { EngineStorage } from './storage/storage';

/** A file a send carries (spec §5: one image or video); it is uploaded first, then the message is sent. */
export interface OutboxAttachment {
  name: string;
  mime: string;
  size: number;
  kind: 'image' | 'video';
  /** Upload progress, 0..1 (1 once uploaded). */
  progress: number;
  /** The server's answer to the upload, once it is done: a retry then only sends the message. */
  uploaded: UploadedFile | null;
}

export interface OutboxEntry {
  /** Unique per send; the Idempotency-Key, so a retry is never taken for a new message (design.md §4). */
  localId: string;
  /** Whose send this is: entries of another account are never sent. */
  userId: number;
  conversationId: number;
  /** Drawn once (spec §7: random 1..10000) and reused by every retry. */
  clientId: number;
  text: string;
  quotedMessageId: number | null;
  /** The file, without its bytes (those are kept apart in storage until the send is done). */
  attachment: OutboxAttachment | null;
  /** Epoch ms when the user sent it; orders the outbox and the pending rows. */
  createdAt: number;
  status: 'pending' | 'failed';
  error: EngineError | null;
  attempts: number;
}

export interface OutboxDeps {
  storage: EngineStorage;
  rest: () => RestClient;
  clock: EngineClock;
  /** The signed-in user, or null: nothing is sent while signed out. */
  userId: () => number | null;
  /** The server stored the message (its answer); the engine puts it into the state. */
  onStored: (message: Message) => void;
}

export const RETRY_BASE_MS = 1_000;
export const RETRY_MAX_MS = 30_000;

const newLocalId = (clock: EngineClock) =>
  `out_${clock.now().toString(36)}_${Math.floor(clock.random() * 2 ** 48).toString(36)}`;

/** A network failure or a server error is worth retrying; a 4xx answer is final until the user retries. */
const retryable = (error: EngineError) => error.status === 0 || error.status >= 500 || error.status === 401;

/**
 * The outbox (issue 3): a send is written to storage before the network call, shown at once as pending,
 * and retried with the same client_id and Idempotency-Key until the server answers, across reconnects and
 * reloads. A refused send is marked failed with its error; the user retries or discards it.
 */
export class Outbox {
  private readonly entries$ = new BehaviorSubject<readonly OutboxEntry[]>([]);
  private sending = false;
  /** A kick that came while a send was in flight: drain again at once instead of waiting out the back-off. */
  private kickRequested = false;
  private stopped = false;
  private retryTimer: unknown = null;

  constructor(private readonly deps: OutboxDeps) {}

  get entries(): Observable<readonly OutboxEntry[]> {
    return this.entries$;
  }

  get current(): readonly OutboxEntry[] {
    return this.entries$.value;
  }

  async load(): Promise<void> {
    const stored = await this.deps.storage.getAll<OutboxEntry>('outbox');
    this.set(stored.map((s) => s.value));
    this.kick();
  }

  async add(input: { conversationId: number; text: string; quotedMessageId: number | null }): Promise<OutboxEntry> {
    const userId = this.deps.userId();
    if (userId === null) throw new Error('Not signed in');
    const { clock } = this.deps;
    const entry: OutboxEntry = {
      localId: newLocalId(clock),
      userId,
      conversationId: input.conversationId,
      clientId: CLIENT_ID_MIN + Math.floor(clock.random() * (CLIENT_ID_MAX - CLIENT_ID_MIN + 1)),
      text: input.text,
      quotedMessageId: input.quotedMessageId,
      attachment: null,
      createdAt: clock.now(),
      status: 'pending',
      error: null,
      attempts: 0,
    };
    // Stored before anything goes on the network: a send survives a crash from here on.
    await this.deps.storage.writeBatch([{ store: 'outbox', type: 'put', key: entry.localId, value: entry }]);
    this.set([...this.current, entry]);
    this.kick();
    return entry;
  }

  async retry(localId: string): Promise<void> {
    const entry = this.current.find((e) => e.localId === localId);
    if (!entry || entry.status !== 'failed') return;
    await this.replace({ ...entry, status: 'pending', error: null });
    this.kick();
  }

  async discard(localId: string): Promise<void> {
    await this.remove(localId);
  }

  /** Our own message came back (socket echo or answer): the pending entry it settles goes away. */
  async settle(message: Message): Promise<void> {
    const entry = this.current.find(
      (e) =>
        e.conversationId === message.conversation_id &&
        e.clientId === message.client_id &&
        e.text.trim() === message.message &&
        e.userId === message.user_id,
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

  /** The engine is going away: no retry may fire after it (entries stay in storage). */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer !== null) this.deps.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Sign-out: another account's sends must never go out under a new one. */
  async clear(): Promise<void> {
    await this.deps.storage.writeBatch([{ store: 'outbox', type: 'clear' }]);
    this.set([]);
  }

  private async drain(): Promise<void> {
    if (this.stopped) return;
    if (this.sending) {
      this.kickRequested = true;
      return;
    }
    this.sending = true;
    this.kickRequested = false;
    try {
      // One at a time, oldest first: messages reach the server in the order they were typed.
      for (;;) {
        const userId = this.deps.userId();
        const next = this.current.find((e) => e.status === 'pending' && e.userId === userId);
        if (!next) return;
        const delivered = await this.sendOne(next);
        if (!delivered) return;
      }
    } finally {
      this.sending = false;
      if (this.kickRequested) this.kick();
    }
  }

  /** Sends one entry; false when it must wait (retry scheduled). */
  private async sendOne(entry: OutboxEntry): Promise<boolean> {
    try {
      const { message } = await this.deps.rest().sendMessage(entry.conversationId, {
        clientId: entry.clientId,
        message: entry.text,
        ...(entry.quotedMessageId !== null ? { quotedMessageId: entry.quotedMessageId } : {}),
        idempotencyKey: entry.localId,
      });
      // The message joins the chat before the pending row leaves it, so it never blinks out.
      this.deps.onStored(message);
      await this.remove(entry.localId);
      return true;
    } catch (error) {
      if (!this.current.some((e) => e.localId === entry.localId)) return true;
      const engineError = isEngineError(error) ? error : null;
      if (engineError && !retryable(engineError)) {
        await this.replace({ ...entry, status: 'failed', error: engineError, attempts: entry.attempts + 1 });
        return true;
      }
      const attempts = entry.attempts + 1;
      await this.replace({ ...entry, attempts });
      const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attempts - 1, 10));
      this.retryTimer = this.deps.clock.setTimeout(() => {
        this.retryTimer = null;
        void this.drain();
      }, delay);
      return false;
    }
  }

  private async replace(entry: OutboxEntry): Promise<void> {
    await this.deps.storage.writeBatch([{ store: 'outbox', type: 'put', key: entry.localId, value: entry }]);
    this.set(this.current.map((e) => (e.localId === entry.localId ? entry : e)));
  }

  private async remove(localId: string): Promise<void> {
    if (!this.current.some((e) => e.localId === localId)) return;
    await this.deps.storage.writeBatch([{ store: 'outbox', type: 'delete', key: localId }]);
    this.set(this.current.filter((e) => e.localId !== localId));
  }

  private set(entries: readonly OutboxEntry[]): void {
    this.entries$.next([...entries].sort((a, b) => a.createdAt - b.createdAt || (a.localId < b.localId ? -1 : 1)));
  }
}
