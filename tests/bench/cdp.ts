import type { Browser, CDPSession } from 'playwright';

/**
 * The DevTools protocol on every target of the browser: tabs, the SharedWorker and dedicated workers.
 * Playwright gives a session only to pages; workers are reached through the browser session, attached
 * without flattening, with messages wrapped in `Target.sendMessageToTarget`.
 */

export interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

/** The JS target types that run the app: tabs and engine workers. */
const JS_TYPES = new Set(['page', 'shared_worker', 'worker']);

export class BrowserTargets {
  private readonly sessions = new Map<string, string>();
  private readonly pending = new Map<string, (message: { result?: unknown; error?: { message: string } }) => void>();
  private nextId = 0;

  private constructor(private readonly cdp: CDPSession) {
    cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
      const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id === undefined) return;
      const key = `${event.sessionId}:${message.id}`;
      this.pending.get(key)?.(message);
      this.pending.delete(key);
    });
    cdp.on('Target.detachedFromTarget', (event: { sessionId: string; targetId?: string }) => {
      for (const [target, session] of this.sessions) if (session === event.sessionId) this.sessions.delete(target);
    });
  }

  static async open(browser: Browser): Promise<BrowserTargets> {
    return new BrowserTargets(await browser.newBrowserCDPSession());
  }

  /** The tabs and workers running the app on `origin` right now. */
  async list(origin: string): Promise<TargetInfo[]> {
    const { targetInfos } = (await this.cdp.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
    return targetInfos.filter((t) => JS_TYPES.has(t.type) && t.url.startsWith(origin));
  }

  /** Sends a DevTools command to one target; resolves with its result. */
  async send<T = unknown>(targetId: string, method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<T> {
    let sessionId = this.sessions.get(targetId);
    if (!sessionId) {
      ({ sessionId } = (await this.cdp.send('Target.attachToTarget', { targetId, flatten: false })) as { sessionId: string });
      this.sessions.set(targetId, sessionId);
    }
    const id = ++this.nextId;
    const key = `${sessionId}:${id}`;
    const answer = new Promise<{ result?: unknown; error?: { message: string } }>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(key);
        reject(new Error(`${method} got no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(key, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
    await this.cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    const message = await answer;
    if (message.error) throw new Error(`${method}: ${message.error.message}`);
    return message.result as T;
  }

  /** Evaluates an expression in a target (a worker's global scope, say) and returns its value. */
  async evaluate<T>(targetId: string, expression: string): Promise<T> {
    const { result, exceptionDetails } = await this.send<{
      result: { value?: T };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>(targetId, 'Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value as T;
  }

  /** The JS heap in use by one target after a full garbage collection, in bytes. */
  async heapAfterGc(targetId: string): Promise<number> {
    await this.send(targetId, 'HeapProfiler.collectGarbage');
    const { usedSize } = await this.send<{ usedSize: number }>(targetId, 'Runtime.getHeapUsage');
    return usedSize;
  }

  /** The heap of every tab and worker of the app, after garbage collection: the total and per target type (sessions end after). */
  async appHeap(origin: string): Promise<{ total: number; byType: Record<string, number>; targets: number }> {
    const byType: Record<string, number> = {};
    let total = 0;
    const targets = await this.list(origin);
    for (const t of targets) {
      const used = await this.heapAfterGc(t.targetId);
      byType[t.type] = (byType[t.type] ?? 0) + used;
      total += used;
    }
    await this.detachAll();
    return { total, byType, targets: targets.length };
  }

  /**
   * Ends every session to a target. Call it before the app's tabs navigate: Chromium holds a SharedWorker
   * that starts while a DevTools session to its previous instance was open until a debugger resumes it, so
   * the new page's engine would never answer.
   */
  async detachAll(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    for (const sessionId of sessions) await this.cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.detachAll();
    await this.cdp.detach().catch(() => undefined);
  }
}
