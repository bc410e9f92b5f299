import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_ERRORS } from '../../../src/ui/common/errorText';
import { launchChromium } from '../../support/browser';
import { buildClientInTemp } from '../../support/buildClient';
import { type FaultProxy, faultProxy } from '../../support/faultProxy';
import { reportPages } from '../../support/pageReport';
import { signUp, startTestServer, type TestServer, type TestUser } from '../../support/server';
import { CLIENT_DIR, openTab, signInAs } from '../../support/tabs';

/**
 * The walk through spec §8's error catalogue: for every entry a test provokes the failure in the real app
 * against the real server (behind a loopback proxy that refuses, answers wrongly or drops the calls the
 * entry names) and checks the text the user is shown, once in English and once in Swedish.
 */

export const LANGUAGES = ['en', 'sv'] as const;
export type Language = (typeof LANGUAGES)[number];

type Tree = { [key: string]: string | Tree };
const LOCALES = path.resolve(import.meta.dirname, '../../../src/locales');
const resources = new Map<Language, Tree>();

function resource(language: Language): Tree {
  let tree = resources.get(language);
  if (!tree) {
    tree = {};
    const dir = path.join(LOCALES, language);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      tree[file.replace(/\.json$/, '')] = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Tree;
    }
    resources.set(language, tree);
  }
  return tree;
}

/**
 * A text of the locale files, as i18next would give it (`{{name}}` filled in from `vars`). A placeholder
 * without a value ends the text there, so what is checked is the part before it.
 */
export function text(language: Language, key: string, vars: Record<string, string | number> = {}): string {
  let node: string | Tree | undefined = resource(language);
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text ${key} in ${language}`);
  const filled = node.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
  const open = filled.indexOf('{{');
  return (open === -1 ? filled : filled.slice(0, open)).trimEnd();
}

const isKeyName = (spec: string): boolean => /^[a-z][A-Za-z]+$/.test(spec);

export interface SignedIn {
  user: TestUser;
  context: BrowserContext;
  page: Page;
}

export interface Stage {
  readonly language: Language;
  /** The real server (its database for fixtures; `url` reaches it without the proxy). */
  readonly server: TestServer;
  /** The proxy the tabs load the app through: every call of the engine crosses it. */
  readonly proxy: FaultProxy;
  /** The app's origin (the proxy). */
  readonly url: string;
  /** A text of this stage's language (for locators: labels and button names are translated too). */
  t(key: string, vars?: Record<string, string | number>): string;
  /**
   * A fresh profile in this stage's language with a tab on `path`, signed out. Closed after the test, or
   * after the block with `keep` (for a profile made once in `once`).
   */
  tab(path?: string, options?: { keep?: boolean }): Promise<{ context: BrowserContext; page: Page }>;
  /** A new user signed up over REST and signed in in a fresh profile, its tab on `path` (default /inbox). */
  person(nickname: string, path?: string, options?: { keep?: boolean }): Promise<SignedIn>;
  /** A user signed up over REST only (someone to chat with). */
  user(nickname: string): Promise<TestUser>;
  /** `make()` once per block (per language): for set-ups several entries share, made with `keep`. */
  once<T>(name: string, make: () => Promise<T>): Promise<T>;
}

export interface CatalogueEntry {
  /**
   * The text as spec §8 words it: the English text shown must contain it. For the login-screen keys §8
   * names by key (invalidPinCode, …) it is that name, and `key` must end with it.
   */
  spec: string;
  /** Further names of the catalogue this entry shows (login-screen keys shown by the same failure). */
  names?: string[];
  /** Where it shows, when the catalogue's text shows in several places (for the test's title). */
  where?: string;
  /** The locale key the app shows it under. */
  key: string;
  vars?: Record<string, string | number>;
  /**
   * Leaves the app showing the failure and returns the element that shows it; or, for a text only a
   * script meets (the console API, no screen makes the call), the message the engine rejected with: it
   * must be the §8 text and one the app's error table translates under `key`.
   */
  provoke(stage: Stage): Promise<Locator | { rejected: string }>;
}

/**
 * One describe block per language, one test per entry. The server, proxy and Chromium are shared by the
 * block; every profile a test opens is closed after it and the proxy's rules are cleared.
 */
export function walkCatalogue(
  area: string,
  entries: readonly CatalogueEntry[],
  options: { build?: Record<string, string> } = {},
): void {
  // A client built with other build variables (e.g. the debug password), once for both languages.
  let built: string | null = null;
  const clientDir = (): string => {
    if (!options.build) return CLIENT_DIR;
    built ??= buildClientInTemp('messenger-catalogue-client-', options.build);
    return built;
  };
  afterAll(() => {
    if (built) rmSync(built, { recursive: true, force: true });
  });
  describe.each(LANGUAGES)(`spec §8, ${area} (%s)`, (language) => {
    let server: TestServer;
    let proxy: FaultProxy;
    let browser: Browser;
    const contexts: BrowserContext[] = [];
    const kept: BrowserContext[] = [];
    const made = new Map<string, Promise<unknown>>();

    beforeAll(async () => {
      server = await startTestServer({ clientDir: clientDir() });
      proxy = await faultProxy(Number(new URL(server.url).port));
      browser = await launchChromium();
    });
    afterEach(async (context) => {
      // What the tabs show, before they are closed (a failure on a busy CI machine may not happen here).
      if (context.task.result?.state === 'fail') {
        console.log(await reportPages([...contexts, ...kept], `${language}: ${context.task.name}`, context.task.result.errors?.[0]));
      }
      proxy.clear();
      await Promise.all(contexts.splice(0).map((c) => c.close()));
    });
    afterAll(async () => {
      await Promise.all(kept.splice(0).map((c) => c.close()));
      made.clear();
      await browser?.close();
      await proxy?.close();
      await server?.close();
    });

    const tab = async (at = '/login', options: { keep?: boolean } = {}) => {
      const context = await browser.newContext({ locale: language === 'sv' ? 'sv-SE' : 'en-US' });
      (options.keep ? kept : contexts).push(context);
      const page = await openTab(context, `${proxy.url}${at}`);
      await page.evaluate((l) => window.engine.setLanguage(l), language);
      return { context, page };
    };
    const stage: Stage = {
      language,
      get server() {
        return server;
      },
      get proxy() {
        return proxy;
      },
      get url() {
        return proxy.url;
      },
      t: (key, vars) => text(language, key, vars),
      tab,
      user: (nickname) => signUp(server.url, nickname),
      once<T>(name: string, make: () => Promise<T>): Promise<T> {
        let value = made.get(name);
        if (!value) {
          value = make();
          made.set(name, value);
          // A failed set-up is made again by the next entry that needs it.
          value.catch(() => made.delete(name));
        }
        return value as Promise<T>;
      },
      async person(nickname, at = '/inbox', options = {}) {
        const user = await signUp(server.url, nickname);
        const { context, page } = await tab('/login', options);
        await signInAs(page, user.phone);
        await page.goto(`${proxy.url}${at}`);
        return { user, context, page };
      },
    };

    for (const entry of entries) {
      const title = [entry.spec, ...(entry.names ?? [])].join(', ');
      it(entry.where ? `${title} (${entry.where})` : title, async () => {
        const english = text('en', entry.key, entry.vars);
        for (const name of [entry.spec, ...(entry.names ?? [])]) {
          if (isKeyName(name)) expect(entry.key.endsWith(`.${name}`), 'the key the catalogue names').toBe(true);
          else expect(english, "the English text is the catalogue's").toContain(name);
        }
        const expected = text(language, entry.key, entry.vars);
        if (language !== 'en') expect(expected, 'translated').not.toBe(english);
        const shown = await entry.provoke(stage);
        if ('rejected' in shown) {
          expect(shown.rejected).toBe(entry.spec);
          expect(KNOWN_ERRORS[shown.rejected]).toBe(entry.key);
          return;
        }
        // Each look waits a second at most: a look that waited the locator's 30 s would outlast the poll's
        // time and the test's (a missing element then read as "Test timed out", not as what was missing).
        await expect.poll(() => shown.innerText({ timeout: 1_000 }).catch(() => '')).toContain(expected);
      });
    }
  });
}
