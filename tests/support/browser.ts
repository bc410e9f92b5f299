import { type Browser, chromium } from 'playwright';
import { chromiumLaunchOptions } from './chromium';

/** Debian's Chromium driven by Playwright; nothing downloads a browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ headless: true, ...chromiumLaunchOptions() });
}
