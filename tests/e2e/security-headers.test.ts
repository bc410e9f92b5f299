import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP_REPORT_PATH } from '../../server/http/cspReports';
import { checkNoCspViolations } from '../support/cspReports';
import { listenOnLoopback } from '../support/loopback';
import { signUp, useTestServer } from '../support/server';
import { CLIENT_DIR, openTab, signInAs, useChromium } from '../support/tabs';

/**
 * Issue 12 in a real browser: the app works under its Content-Security-Policy (every e2e test checks that
 * no violation was reported, tests/e2e/csp-setup.ts; here, that the check sees one), no other site can
 * frame it, and a page of another site cannot open the websocket with a user's token.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

/** Another site on loopback (another port: another origin), serving the page a test gives it. */
let elsewhere: Server;
let elsewhereUrl = '';
let elsewherePage = '';
beforeAll(async () => {
  elsewhere = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(elsewherePage);
  });
  elsewhereUrl = `http://127.0.0.1:${await listenOnLoopback(elsewhere)}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      elsewhere.closeAllConnections();
      elsewhere.close(() => resolve());
    }),
);

describe('the Content-Security-Policy', () => {
  it('lets the whole app run, and makes the browser say nothing about the headers', async () => {
    const user = await signUp(s.url, 'Policy');
    const context = await chromium.context({ locale: 'en-US' });
    const page = await context.newPage();
    const console: string[] = [];
    page.on('console', (m) => console.push(`${m.type()}: ${m.text()}`));
    await page.goto(s.url + '/');
    await page.getByRole('heading', { name: 'Sign in with your phone number' }).waitFor();
    await signInAs(page, user.phone);
    await page.getByRole('searchbox', { name: 'Search chats' }).waitFor();
    // An unknown feature in Permissions-Policy, or a malformed policy, is logged to the console.
    expect(console.filter((line) => /policy|content security/i.test(line))).toEqual([]);
    // The app talked to its server over the socket: connect-src let it.
    await expect.poll(() => s.server.hub.connectionCount()).toBeGreaterThan(0);
  });

  it('refuses an injected inline script, and the check after every test sees the report', async () => {
    const context = await chromium.context();
    const page = await openTab(context, s.url + '/login');
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injectedRan = true';
      document.head.append(script);
      return (window as { injectedRan?: boolean }).injectedRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => s.cspReports.length).toBeGreaterThan(0);
    expect(s.cspReports).toContainEqual(expect.objectContaining({ violatedDirective: 'script-src-elem', blockedUri: 'inline' }));
    expect(() => checkNoCspViolations()).toThrow(/Content-Security-Policy violations:\nscript-src-elem blocked inline/);
    // Taken by the check: what follows in this file starts clean.
    expect(() => checkNoCspViolations()).not.toThrow();
  });

  it('keeps the app out of another site’s frame', async () => {
    const context = await chromium.context();
    const page = await context.newPage();
    const appRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(s.url)) appRequests.push(new URL(request.url()).pathname);
    });
    elsewherePage = `<!doctype html><iframe src="${s.url}/login"></iframe>`;
    await page.goto(elsewhereUrl);
    // The browser refused to show it, and says so to the policy's report-uri.
    await expect.poll(() => s.cspReports.filter((r) => r.violatedDirective === 'frame-ancestors').length).toBe(1);
    expect(() => checkNoCspViolations()).toThrow(/frame-ancestors/);
    // The page arrived but was not shown: nothing it names was loaded (only the report went out).
    expect(appRequests.filter((p) => p !== CSP_REPORT_PATH)).toEqual(['/login']);
  });
});

describe('the websocket', () => {
  const socketFrom = async (pageUrl: string, token: string): Promise<string> => {
    const context = await chromium.context();
    const page = await context.newPage();
    await page.goto(pageUrl);
    const host = new URL(s.url).host;
    return page.evaluate(
      ([h, t]) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`ws://${h}/ws?token=${encodeURIComponent(t)}&last_message_id=0&protocol=7&deviceType=webclient`);
          ws.onopen = () => {
            ws.close();
            resolve('open');
          };
          ws.onerror = () => resolve('refused');
        }),
      [host, token] as const,
    );
  };

  it('refuses a page of another site that has a user’s token, and opens for the app’s own pages', async () => {
    const user = await signUp(s.url, 'Stolen');
    elsewherePage = '<!doctype html><title>Elsewhere</title>';
    expect(await socketFrom(elsewhereUrl, user.token)).toBe('refused');
    expect(await socketFrom(s.url + '/login', user.token)).toBe('open');
  });
});
