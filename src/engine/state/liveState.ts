import { BehaviorSubject, type Observable, Subject } from 'rxjs';
import { BatchedWriter, type WriteBatch } from '../storage/batchedWriter';
import type { EngineClock } from '../clock';
import { persistOps } from '../storage/persistence';
import { reduce } from '.';
import { type EngineEffect, type EngineEvent, type EngineState, initialState } from './types';
import type { EngineStorage, StorageOp } from '../storage/storage';

export interface LiveStateOptions {
  storage: EngineStorage;
  clock: EngineClock;
  log: (message: string, detail?: unknown) => void;
  /** Conversations open in a visible tab now: the reducer reads their new messages at once. */
  openConversations: () => Set<number>;
  /** Conversations shown in a tab that reads them as its reader sees them (TabRegistry `readAsSeen`). */
  readAsSeen?: () => Set<number>;
  /** Writes of others that must land in the same batch as the state they go with (pending receipts). */
  extraOps: () => WriteBatch;
  /** What the reducer asks for besides the new state. */
  onEffect: (effect: EngineEffect) => void;
}

/**
 * The engine's state (state/): every event goes through the reducer here, and what changed is written
 * to storage behind it, a burst of events in one batch.
 */
export class LiveState {
  private readonly subject = new BehaviorSubject<EngineState>(initialState());
  readonly state$: Observable<EngineState> = this.subject.asObservable();
  private readonly applied = new Subject<EngineEvent>();
  /** Every event once the state took it: for parts that keep something beside the state (the trimmed history). */
  readonly events$: Observable<EngineEvent> = this.applied.asObservable();
  /** What storage holds (as far as this engine wrote or read it): moved only once a write committed. */
  private persisted: EngineState = initialState();
  private readonly writer: BatchedWriter;

  constructor(private readonly options: LiveStateOptions) {
    this.writer = new BatchedWriter({ ...options, failure: 'saving the engine state failed', collect: () => this.changedOps() });
  }

  get value(): EngineState {
    return this.subject.value;
  }

  /** Takes the state loaded from storage at start. */
  restore(state: EngineState): void {
    this.persisted = state;
    this.subject.next(state);
  }

  dispatch(event: EngineEvent): void {
    const { state, effects } = reduce(this.subject.value, event, {
      openConversations: this.options.openConversations(),
      ...(this.options.readAsSeen ? { readAsSeen: this.options.readAsSeen() } : {}),
      now: this.options.clock.now(),
    });
    if (state !== this.subject.value) {
      this.subject.next(state);
      this.writer.schedule();
    }
    this.applied.next(event);
    for (const effect of effects) this.options.onEffect(effect);
  }

  /** Something of `extraOps` changed: write it with the next batch. */
  schedulePersist(): void {
    this.writer.schedule();
  }

  /** Writes what is waiting to be persisted now. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** The engine stopped: a failed write is not retried by a timer any more (`flush` still writes). */
  stop(): void {
    this.writer.stop();
  }

  /** Sign-out cleared the stored state: from here on storage holds nothing of it. */
  storageCleared(): void {
    this.persisted = initialState();
  }

  private changedOps(): WriteBatch {
    const next = this.subject.value;
    const extra = this.options.extraOps();
    const ops: StorageOp[] = [...persistOps(this.persisted, next), ...extra.ops];
    return {
      ops,
      written: () => {
        this.persisted = next;
        extra.written?.();
      },
      failed: () => extra.failed?.(),
    };
  }
}
