import { rmSync } from 'node:fs';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_NUMBER } from '../../src/protocol/constants';
import { buildClientInTemp } from '../support/buildClient';
import { sentryReceiver } from '../support/sentryReceiver';
import { nextPhone, signUp, startTestServer, type TestServer } from '../support/server';
import { CLIENT_DIR, createChat, openTab, sendText, signInAs, useChromium } from '../support/tabs';

/**
 * Issue 9: errors reach the error-reporting service from the tab and from the engine's worker, tagged with
 * the user id and the country code and with nothing private in them; a build without a DSN sends nothing.
 * The service is a receiver on loopback (tests/support/sentryReceiver.ts) the build points at.
 * Issue 20: however the client was built. The server serving the build is told nothing of the DSN (nor of
 * the QA preset's host, another receiver): its Content-Security-Policy takes them from the build itself.
 */
const PASSWORD = 'felrapport';
const chromium = useChromium();
let receiver: Awaited<ReturnType<typeof sentryReceiver>>;
/** The debug screen's QA preset: any server on loopback that records what reaches it. */
let qa: Awaited<ReturnType<typeof sentryReceiver>>;
let qaBase: string;
let reportingDir: string;
let reporting: TestServer;
let plain: TestServer;

beforeAll(async () => {
  receiver = await sentryReceiver();
  qa = await sentryReceiver();
  qaBase = new URL(qa.dsn).origin;
  reportingDir = buildClientInTemp('messenger-reporting-client-', {
    VITE_SENTRY_DSN: receiver.dsn,
    VITE_DEBUG_PASSWORD: PASSWORD,
    VITE_QA_API_BASE: qaBase,
  });
  // Nothing of the build's hosts in the server's config or environment (`SKIP_CLIENT_BUILD=1 npm start`).
  reporting = await startTestServer({ clientDir: reportingDir });
  plain = await startTestServer({ clientDir: CLIENT_DIR });
});
afterAll(async () => {
  await reporting?.close();
  await plain?.close();
  await receiver?.close();
  await qa?.close();
  if (reportingDir) rmSync(reportingDir, { recursive: true, force: true });
});

const PRIVATE_TEXT = 'a very private message about the surprise party';

/** A new user signed in, who has sent a message, on the debug screen. */
async function signedInOnDebug(s: TestServer): Promise<{ page: Page; phone: string; token: string; userId: number }> {
  const user = await signUp(s.url, 'Reporter');
  const friend = await signUp(s.url, 'Friend');
  const context = await chromium.context();
  const page = await openTab(context, s.url);
  await signInAs(page, user.phone);
  const chat = await createChat(page, 'Friend', friend.phone);
  await sendText(page, chat, PRIVATE_TEXT);
  await page.goto(`${s.url}/debug`);
  return { page, phone: user.phone, token: user.token, userId: user.id };
}

const eventWith = (text: string) =>
  receiver.events.find((e) => e.exception?.values?.some((v) => v.value?.includes(text)));

/** The connect-src of the policy `url` is served with. */
async function connectSrc(url: string): Promise<string[]> {
  const policy = (await fetch(url)).headers.get('content-security-policy') ?? '';
  const directive = policy.split(';').find((part) => part.trim().startsWith('connect-src '));
  return directive?.trim().split(/\s+/).slice(1) ?? [];
}

describe('error reporting (issue 9)', () => {
  it('reports the crash test and an error inside the engine, tagged with the user and country, and nothing private', async () => {
    // The served policy names the build's DSN host and QA preset (issue 20), from the build alone.
    expect(await connectSrc(`${reporting.url}/debug`)).toEqual(
      expect.arrayContaining([new URL(receiver.dsn).origin, qaBase, qaBase.replace(/^http/, 'ws')]),
    );
    const { page, phone, token, userId } = await signedInOnDebug(reporting);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Unlock' }).click();

    await page.getByRole('button', { name: 'Crash the app' }).click();
    await page.getByText('The error boundary caught an error:').waitFor();
    await expect.poll(() => eventWith('Crash test from the debug screen'), { timeout: 15_000 }).toBeDefined();
    const tab = eventWith('Crash test from the debug screen');
    expect(tab?.tags).toMatchObject({ runtime: 'tab', user_id: String(userId), country_code: '46' });
    expect(tab?.release).toBe(BUILD_NUMBER);
    expect(tab?.environment).toBe('production');
    // Its React component stack, through Sentry's React API (issue 20): in the `react` context, and as the
    // error's linked cause, whose frames are the components'.
    const componentStack = tab?.contexts?.react?.componentStack;
    expect(typeof componentStack).toBe('string');
    expect(componentStack).toMatch(/^\s*at \S+ \(.*\/assets\//m);
    expect(tab?.exception?.values?.map((v) => v.type)).toContain('React ErrorBoundary Error');

    await page.getByRole('button', { name: 'Crash the engine' }).click();
    await expect.poll(() => eventWith('Engine crash test from the debug screen'), { timeout: 15_000 }).toBeDefined();
    expect(eventWith('Engine crash test from the debug screen')?.tags).toMatchObject({
      runtime: 'engine',
      user_id: String(userId),
      country_code: '46',
    });

    // Whatever was sent: no token, no phone number (in any usual form), no PIN request, no message text.
    const sent = receiver.bodies.join('\n');
    expect(sent).not.toContain(token);
    expect(sent).not.toContain(phone);
    expect(sent).not.toContain(phone.slice(3));
    expect(sent).not.toContain(PRIVATE_TEXT);
    expect(sent).not.toMatch(/"pin"\s*:|pin=\d/i);
  });

  it('lets the debug screen’s QA preset reach the QA hosts the build names (issue 20)', async () => {
    const context = await chromium.context({ locale: 'en-US' });
    const page = await openTab(context, `${reporting.url}/debug`);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('radio', { name: /^QA/ }).check();
    await page.getByRole('button', { name: 'Save hosts' }).click();
    await page.getByText(`Saved: the app now talks to ${qaBase}.`).waitFor();
    const before = qa.bodies.length;
    // The engine's next call goes to the QA host; the policy lets it (a refusal would be a reported violation).
    await page.evaluate((phone) => window.engine.requestPin(phone).catch(() => undefined), nextPhone());
    await expect.poll(() => qa.bodies.length, { timeout: 15_000 }).toBeGreaterThan(before);
  });

  it('sends nothing from a build without a DSN: the SDK is not even loaded', async () => {
    const before = receiver.bodies.length;
    const user = await signUp(plain.url, 'Quiet');
    const context = await chromium.context();
    const page = await openTab(context, plain.url);
    await signInAs(page, user.phone);
    await page.evaluate(() => {
      window.engine.crashTest();
      setTimeout(() => {
        throw new Error('an uncaught error in a build without a DSN');
      });
    });
    await page.waitForTimeout(1_500);
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name));
    expect(scripts.filter((name) => /sentry/i.test(name))).toEqual([]);
    expect(receiver.bodies.length).toBe(before);
  });
});
