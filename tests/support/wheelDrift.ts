import type { Page } from 'playwright';

/**
 * Issue 20's probe, shared by the drift benchmark (tests/bench/drift.ts) and the e2e test of the start of a long
 * history (tests/e2e/chat-history-start.test.ts): wheel bursts like a hand's over the message list (`[role="log"]`),
 * where each drawn row (`[data-message-id]`) is every animation frame meanwhile, and how far the row in the middle
 * of the list moved once the input stopped. Plain Playwright, no test runner: the bench and the e2e tests both use it.
 */

/** A burst: NOTCHES wheel notches of NOTCH_PX px, one a frame; bursts PAUSE_MS apart (8 bursts are 24,000 px). */
export const NOTCHES = 10;
export const NOTCH_PX = 300;
export const PAUSE_MS = 250;
/** How long the reader looks at the row after the input stopped. */
export const WATCH_MS = 3_000;
/** Frames alike in a row that say the wheel's scrolling has ended (the last notch lands a frame or two late). */
export const STILL_FRAMES = 4;

export interface Frame {
  t: number;
  scrollTop: number;
  /** Each drawn message row's top, relative to the list's box, by message id. */
  tops: Record<string, number>;
}
export interface Track {
  frames: Frame[];
  /** When the last wheel event reached the list (the frames' clock). */
  lastWheel: number;
  /** The list's height when the recording stopped. */
  height: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts recording, every animation frame, where each drawn row of the list is, and the wheel events. */
export async function startTrack(page: Page): Promise<void> {
  await page
    .locator('[role="log"]')
    .first()
    .evaluate((el) => {
      const w = window as unknown as { __wheelDrift?: { frames: unknown[]; lastWheel: number; stop: boolean } };
      if (w.__wheelDrift) w.__wheelDrift.stop = true;
      const track = { frames: [] as unknown[], lastWheel: Number.NEGATIVE_INFINITY, stop: false };
      w.__wheelDrift = track;
      el.addEventListener(
        'wheel',
        (event) => {
          track.lastWheel = Math.max(track.lastWheel, event.timeStamp);
        },
        { passive: true, capture: true },
      );
      const frame = (t: number) => {
        if (track.stop) return;
        const box = el.getBoundingClientRect();
        const tops: Record<string, number> = {};
        for (const row of el.querySelectorAll<HTMLElement>('[data-message-id]')) {
          tops[row.dataset.messageId as string] = row.getBoundingClientRect().top - box.top;
        }
        track.frames.push({ t, scrollTop: el.scrollTop, tops });
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
}

/** Stops the recording and returns it. */
export async function stopTrack(page: Page): Promise<Track> {
  return page.evaluate(() => {
    const track = (window as unknown as { __wheelDrift: { frames: Frame[]; lastWheel: number; stop: boolean } }).__wheelDrift;
    track.stop = true;
    return { frames: track.frames, lastWheel: track.lastWheel, height: document.querySelector('[role="log"]')?.clientHeight ?? 0 };
  });
}

/**
 * `bursts` wheel bursts wherever the mouse is (over the middle of the list), `direction` 1 down (towards the
 * latest), -1 up, recorded from the first notch to WATCH_MS (and a little more) after the last one.
 */
export async function trackBursts(page: Page, bursts: number, direction: 1 | -1): Promise<Track> {
  await startTrack(page);
  for (let b = 0; b < bursts; b++) {
    for (let i = 0; i < NOTCHES; i++) {
      await page.mouse.wheel(0, direction * NOTCH_PX);
      await sleep(16);
    }
    if (b < bursts - 1) await sleep(PAUSE_MS);
  }
  await sleep(WATCH_MS + 500);
  return stopTrack(page);
}

/** The row the reader looks at once the input stopped, and the frames of the WATCH_MS that followed. */
export interface RowRead {
  /** Its message id, and its top then, relative to the list's box. */
  id: string;
  top0: number;
  /** The frame in which the input stopped. */
  at: Frame;
  /** The frames from `at` on, for WATCH_MS. */
  watch: Frame[];
  /** How long the recording went on after `at`, in ms. */
  watched: number;
  /** How long after the last wheel event the input stopped, in ms. */
  afterWheel: number;
  height: number;
}

/**
 * Once the input stopped (after the last wheel event, the first of STILL_FRAMES frames in a row in which the list
 * did not scroll: about 50 ms, well before the list's own rest of 150 ms), the row nearest the middle of the list
 * at that frame, and the frames of the WATCH_MS that followed.
 */
export function rowAfterInput(track: Track): RowRead {
  const { frames, lastWheel, height } = track;
  const stop = frames.findIndex(
    (f, i) => f.t > lastWheel && i + STILL_FRAMES <= frames.length && frames.slice(i, i + STILL_FRAMES).every((g) => g.scrollTop === f.scrollTop),
  );
  const at = frames[stop];
  if (!at) throw new Error('the list never stopped scrolling after the last wheel event');
  const onScreen = Object.entries(at.tops)
    .filter(([, top]) => top >= 0 && top < height)
    .sort((a, b) => a[1] - b[1]);
  const [id, top0] = onScreen[Math.floor(onScreen.length / 2)] ?? [];
  if (id === undefined || top0 === undefined) throw new Error('no message row on screen when the input stopped');
  const watch: Frame[] = [];
  for (const f of frames.slice(stop)) {
    if (f.t - at.t > WATCH_MS) break;
    watch.push(f);
  }
  const watched = (frames[frames.length - 1] as Frame).t - at.t;
  return { id, top0, at, watch, watched, afterWheel: at.t - lastWheel, height };
}

/** How far the row read moved at most while it was watched, in px; `notDrawn` says what a frame without it counts. */
export function largestMove(read: RowRead, notDrawn: (f: Frame) => number): number {
  let moved = 0;
  for (const f of read.watch) {
    const top = f.tops[read.id];
    moved = Math.max(moved, top === undefined ? notDrawn(f) : Math.abs(top - read.top0));
  }
  return moved;
}
