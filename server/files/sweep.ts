import type { FileStorage } from './storage';

/** Temporary objects of uploads (server/files/store.ts) start with this. */
export const UPLOAD_PREFIX = '.upload-';

/**
 * How long a temporary upload object may go unwritten before it counts as abandoned (a crash or a kill
 * mid-upload). A live upload writes to it with every chunk, and another node's live one too when the
 * directory is shared, so this is far longer than any pause of a working upload.
 */
export const ABANDONED_UPLOAD_MS = 30 * 60_000;

/** How often a node looks for abandoned temporary objects, besides once when it starts. */
export const UPLOAD_SWEEP_INTERVAL_MS = 10 * 60_000;

/** Removes temporary upload objects last written ABANDONED_UPLOAD_MS or longer before `now`; answers how many. */
export async function sweepAbandonedUploads(storage: FileStorage, now: number): Promise<number> {
  const stale = (await storage.list(UPLOAD_PREFIX)).filter((entry) => now - entry.modifiedAt >= ABANDONED_UPLOAD_MS);
  await Promise.all(stale.map((entry) => storage.remove(entry.key)));
  return stale.length;
}

/** Runs `sweepAbandonedUploads` every UPLOAD_SWEEP_INTERVAL_MS until stopped; a failed sweep is logged and retried. */
export class UploadSweeper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly storage: FileStorage,
    private readonly now: () => number,
    private readonly warn: (error: unknown) => void,
  ) {}

  /** One sweep now; what the timer runs. */
  async sweep(): Promise<number> {
    try {
      return await sweepAbandonedUploads(this.storage, this.now());
    } catch (error) {
      this.warn(error);
      return 0;
    }
  }

  start(): void {
    this.timer ??= setInterval(() => void this.sweep(), UPLOAD_SWEEP_INTERVAL_MS);
    // The sweep never keeps a process alive that has nothing else to do.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
