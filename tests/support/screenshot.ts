import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { diff } from '@blazediff/core';
import type { Page } from 'playwright';
import { PNG } from 'pngjs';

/**
 * Screenshots compared with committed baselines, pixel by pixel (Playwright's `toHaveScreenshot` belongs to
 * its test runner, which we do not use). A missing baseline is written when run locally and fails in CI;
 * `UPDATE_SCREENSHOTS=1` writes them all again after an intended change. A mismatch leaves the actual
 * picture and a diff next to each other in a temporary directory and names it in the failure.
 */

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../e2e/__screenshots__');

/** Share of pixels that may differ (anti-aliasing aside) before a screen counts as changed. */
const MAX_DIFF_RATIO = 0.002;

/**
 * What makes a page's pixels the same from run to run: the fonts the CI machine installs (DejaVu Sans
 * and Noto Color Emoji, see .ci/run), no animations or transitions, no blinking caret.
 */
const STEADY_CSS = `
  *, *::before, *::after {
    animation: none !important;
    transition: none !important;
    caret-color: transparent !important;
  }
  html, body, button, input, textarea, select {
    font-family: 'DejaVu Sans', 'Noto Color Emoji', sans-serif !important;
  }
`;

/** Steadies the page and waits until its fonts and layout have settled. */
export async function steady(page: Page): Promise<void> {
  await page.addStyleTag({ content: STEADY_CSS });
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

export interface ScreenshotResult {
  /** Pixels that differ from the baseline (0 when it was written now). */
  differing: number;
  ratio: number;
  /** Set when the baseline was written by this run. */
  written: boolean;
}

/** Compares the page with the baseline `name` (a file name without extension). */
export async function matchScreenshot(page: Page, name: string): Promise<ScreenshotResult> {
  await steady(page);
  const actual = await page.screenshot({ fullPage: false, animations: 'disabled', caret: 'hide' });
  const baselinePath = path.join(SCREENSHOT_DIR, `${name}.png`);
  if (process.env.UPDATE_SCREENSHOTS === '1' || (!existsSync(baselinePath) && !process.env.CI)) {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    writeFileSync(baselinePath, actual);
    return { differing: 0, ratio: 0, written: true };
  }
  if (!existsSync(baselinePath)) throw new Error(`no baseline ${baselinePath}: run the test locally to write it`);
  const expected = PNG.sync.read(readFileSync(baselinePath));
  const shot = PNG.sync.read(actual);
  if (expected.width !== shot.width || expected.height !== shot.height) {
    throw new Error(`${name}: ${shot.width}×${shot.height}, the baseline is ${expected.width}×${expected.height}`);
  }
  const output = new PNG({ width: shot.width, height: shot.height });
  const differing = diff(expected.data, shot.data, output.data, shot.width, shot.height, { threshold: 0.1 });
  const ratio = differing / (shot.width * shot.height);
  if (ratio > MAX_DIFF_RATIO) {
    const dir = path.join(tmpdir(), 'messenger-screenshots');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${name}.actual.png`), actual);
    writeFileSync(path.join(dir, `${name}.diff.png`), PNG.sync.write(output));
    throw new Error(
      `${name}: ${differing} pixels (${(ratio * 100).toFixed(2)} %) differ from the baseline; see ${dir}/${name}.{actual,diff}.png`,
    );
  }
  return { differing, ratio, written: false };
}
