import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { current } from './engineQuery';

/** How long each look at a page may take: a page that hangs must not hang the report as well. */
const LOOK_MS = 3_000;

const within = <T>(promise: Promise<T>, fallback: T): Promise<T> =>
  Promise.race([promise.catch(() => fallback), new Promise<T>((resolve) => setTimeout(() => resolve(fallback), LOOK_MS))]);

/**
 * What each open tab shows, for a test that failed on a busy CI machine and passes here: the URL, the chat
 * view's state, what the composer holds, the rows, the failed sends, the engine's outbox and the visible text,
 * plus a screenshot. Printed by the test's failure hook, so the next look starts from what was on screen
 * rather than from a bare "Test timed out".
 */
export async function reportPages(contexts: readonly BrowserContext[], title: string, error?: unknown): Promise<string> {
  const dir = path.join(tmpdir(), 'messenger-test-failures');
  mkdirSync(dir, { recursive: true });
  const pages: Page[] = contexts.flatMap((c) => c.pages());
  const lines: string[] = [`${title}: ${pages.length} open tab(s)`];
  // A test that passes on its retry prints no error of its own: the first line of it is here.
  const message = (error as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string') lines.push(`failed with: ${message.split('\n')[0]?.slice(0, 300) ?? ''}`);
  for (const [i, page] of pages.entries()) {
    const outbox = await within<unknown>(current(page, 'outbox'), 'no answer');
    const state = await within<unknown>(
      page.evaluate(() => {
        const box = document.querySelector<HTMLTextAreaElement>('.composer textarea, textarea');
        return {
          view: document.querySelector('[data-chat-view]')?.getAttribute('data-chat-view') ?? null,
          composer: box ? box.value : null,
          rows: document.querySelectorAll('[data-message-id]').length,
          failedSends: document.querySelectorAll('.msg-failed-actions').length,
          rowsNotRendered: document.querySelectorAll('.row-failed').length,
          text: document.body.innerText.replace(/\s+/g, ' ').slice(0, 600),
        };
      }),
      'the page did not answer',
    );
    const shot = path.join(dir, `${title.replace(/[^\w-]+/g, '_').slice(0, 80)}-${Date.now()}-${i}.png`);
    const saved = await within(
      page.screenshot({ path: shot, timeout: LOOK_MS }).then(() => shot),
      'no screenshot',
    );
    lines.push(`tab ${i}: ${page.url()}`, `  ${JSON.stringify(state)}`, `  outbox: ${JSON.stringify(outbox)}`, `  screenshot: ${saved}`);
  }
  return lines.join('\n');
}
