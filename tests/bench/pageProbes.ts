import type { Page } from 'playwright';
import { until } from './app';

/**
 * What the browser benchmarks measure inside a tab, installed with `page.evaluate`: the scroll tracker
 * (how far the content under the reader moved, frame by frame) and the wheel input they replay.
 */

export interface ScrollTrack {
  /** Content distance covered upwards, in px (rows moving down on screen). */
  distance: number;
  frames: number;
  /** Frames in which the list sat at its top edge (scrollTop ≤ 1), waiting for older messages. */
  topFrames: number;
  /** The smallest message id that has been on screen. */
  minId: number;
}

/**
 * Starts following the rows (`[data-message-id]`) of the scroll box `[role="log"]` every animation frame.
 * The distance of a frame is the median of how far the rows on screen in both frames moved, so rows
 * added above (older pages, with the list keeping its anchor) do not count as scrolling; when no row is
 * in both frames (a jump past everything rendered), the scroll box's own movement counts.
 */
export async function startScrollTrack(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __track?: ScrollTrack & { stop: boolean } };
    if (w.__track) w.__track.stop = true;
    const track = { distance: 0, frames: 0, topFrames: 0, minId: Number.POSITIVE_INFINITY, stop: false };
    w.__track = track;
    let previous = new Map<string, number>();
    let previousTop: number | null = null;
    const frame = () => {
      if (track.stop) return;
      const box = document.querySelector('[role="log"]');
      if (box) {
        const view = box.getBoundingClientRect();
        const now = new Map<string, number>();
        for (const el of box.querySelectorAll<HTMLElement>('[data-message-id]')) {
          const r = el.getBoundingClientRect();
          if (r.bottom < view.top || r.top > view.bottom) continue;
          const id = el.dataset.messageId as string;
          now.set(id, r.top);
          track.minId = Math.min(track.minId, Number(id));
        }
        const moved: number[] = [];
        for (const [id, top] of now) {
          const before = previous.get(id);
          if (before !== undefined) moved.push(top - before);
        }
        if (moved.length > 0) {
          moved.sort((a, b) => a - b);
          track.distance += moved[Math.floor(moved.length / 2)] as number;
        } else if (previousTop !== null) {
          track.distance += previousTop - box.scrollTop;
        }
        previous = now;
        previousTop = box.scrollTop;
        track.frames += 1;
        if (box.scrollTop <= 1) track.topFrames += 1;
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

export async function readScrollTrack(page: Page): Promise<ScrollTrack> {
  return page.evaluate(() => {
    const { distance, frames, topFrames, minId } = (window as unknown as { __track: ScrollTrack }).__track;
    return { distance, frames, topFrames, minId };
  });
}

/** The centre of the message list: where the wheel input goes. */
export async function listCentre(page: Page): Promise<{ x: number; y: number; box: { x: number; y: number; width: number; height: number } }> {
  const box = await page.locator('[role="log"]').first().boundingBox();
  if (!box) throw new Error('no message list on the page');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
}

/** A fast flick of the mouse wheel upwards: `events` notches of `delta` px, one per frame (16 ms). */
export async function flickUp(page: Page, events: number, delta: number): Promise<void> {
  const start = Date.now();
  for (let i = 0; i < events; i++) {
    await page.mouse.wheel(0, -delta);
    const due = start + (i + 1) * 16;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * A page with nothing but a scroll box of plain rows, where the app's message list is: the same wheel input
 * moves it as far as the browser scrolls anything, which is the wheel figure's baseline.
 */
export async function showStaticList(page: Page, box: { x: number; y: number; width: number; height: number }): Promise<void> {
  const rows = 4_000;
  await page.setContent(`<!doctype html><html><body style="margin:0">
    <div role="log" style="position:absolute;left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px;overflow-y:auto">
      ${Array.from({ length: rows }, (_, i) => `<div data-message-id="${i + 1}" style="height:60px;border-bottom:1px solid #ccc;box-sizing:border-box">#${i + 1}</div>`).join('')}
    </div></body></html>`);
  await page.locator('[role="log"]').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
}

/**
 * The list shows rows and has stopped moving: the same rows at the same place for a few looks in a row. `what`
 * names the moment in the error, which also says what was seen last.
 */
export async function settled(page: Page, what?: string, timeoutMs = 30_000): Promise<void> {
  let last = '';
  let stable = 0;
  await until(
    what === undefined ? 'the message list to settle' : `the message list to settle (${what})`,
    async () => {
      const now = await page.evaluate(() => {
        const box = document.querySelector('[role="log"]');
        const ids = box ? [...box.querySelectorAll('[data-message-id]')].map((e) => e.getAttribute('data-message-id')).join(',') : '';
        return ids ? `${ids}@${box?.scrollTop ?? 0}` : '';
      });
      stable = now && now === last ? stable + 1 : 0;
      last = now;
      return stable >= 4 ? true : undefined;
    },
    timeoutMs,
    100,
  ).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; last seen: ${last.slice(-200)}`);
  });
}
