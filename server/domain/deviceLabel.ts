/**
 * The browser and system a session signed in from, as the account page names them (docs/server.md
 * "Sessions"): a few well-known names read from the User-Agent, else ''. Only these names are ever stored
 * or answered, never the header itself: it is whatever the caller chose to send.
 */
export interface DeviceNames {
  browser: string;
  os: string;
}

/** Most specific first: Edge and Opera say "Chrome" too, Chrome says "Safari". */
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\b(Chrome|CriOS|HeadlessChrome)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (table: readonly [RegExp, string][], text: string): string => table.find(([re]) => re.test(text))?.[1] ?? '';

export function deviceNames(userAgent: string | undefined): DeviceNames {
  // A header longer than any real browser's is not read at all (the patterns stay cheap on hostile input).
  const text = typeof userAgent === 'string' && userAgent.length <= 512 ? userAgent : '';
  return { browser: first(BROWSERS, text), os: first(SYSTEMS, text) };
}
