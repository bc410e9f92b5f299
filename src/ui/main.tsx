import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { activate, BUILD_REPORTING, holdEarlyErrors, reportingEnabled, reportSession } from '../reporting/reporter';
import { connectEngine } from '../worker/connect';
import { App } from './App';
import { dateFormat } from './common/time';
import { saveThenReload } from './hooks/saveBeforeReload';
import { createI18n, initialLanguage, LANGUAGE_KEY } from './i18n';
import { createAppRouter, preloadScreen } from './routing/router';
import { mainScreenLikely, mirrorSession } from './routing/signedInHint';
import './styles.css';

/**
 * Error reporting in this tab (issue 9): errors nothing catches are held from the start; the SDK loads after
 * the first paint (never on the login page's critical path) and reports them, tagged with the session.
 */
function startReporting(engine: ReturnType<typeof connectEngine>): void {
  if (!reportingEnabled(BUILD_REPORTING)) return;
  const stopHolding = holdEarlyErrors(window);
  engine.session().subscribe((session) => {
    reportSession(session.status === 'unauthenticated' ? null : { userId: session.userId, countryCode: session.countryCode });
  });
  const load = () =>
    void import('../reporting/sentryTab').then(({ startTabSentry }) => {
      activate(startTabSentry(BUILD_REPORTING));
      stopHolding();
    });
  requestAnimationFrame(() => setTimeout(load, 0));
}

/**
 * Resolves in a task of its own, after what is queued already (a message, not a timer, which a background tab
 * would hold back for a second).
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * The start is cut into tasks (the fetches set off first, then the engine, the router, and React's first
 * render in slices): each blocks the page for a short while, where the whole in one task kept it from
 * answering input for the length of all of them, which on a slow phone is hundreds of milliseconds.
 */
async function start(): Promise<void> {
  // Only this reader's language and this screen's chunk load (issue 11), fetched alongside the engine's worker.
  const language = initialLanguage(localStorage.getItem(LANGUAGE_KEY), navigator.languages);
  document.documentElement.lang = language;
  // A reader last seen signed in gets the main screen and its texts at once too, not after the session answered.
  const mainLikely = mainScreenLikely(location.pathname, localStorage);
  const i18nReady = createI18n(language, mainLikely ? ['login', 'app'] : ['login']);
  preloadScreen(location.pathname, mainLikely);
  await nextTask();
  // The profile's one engine (a SharedWorker), for the UI and for scripting from the console. When another
  // build takes it over, what is being typed is saved before the tab reloads into that build.
  const engine = connectEngine({
    onReloadRequested: () => void saveThenReload(),
    // Only `npm run bench` sets this: the heartbeat alone, as the baseline of noticing a dead engine worker.
    wakeOnWorkerDeath: new URLSearchParams(location.search).get('bench') !== 'heartbeat-only',
  });
  window.engine = engine;
  engine.session().subscribe((session) => mirrorSession(session, localStorage));
  startReporting(engine);
  await nextTask();
  const router = createAppRouter();
  if (mainLikely) {
    // The chats list's times need a date formatter, and the first Intl formatter of a process builds V8's
    // tables of ICU's locales (some 40 ms on a slow machine, in one piece). The engine's worker, in this tab's
    // process, builds them on its own thread as it starts (startEngine.ts), often before this runs; where it
    // has not, they are built here, in a task of their own while the texts, the session and the list are on
    // their way, not inside the render of the list's first row.
    await nextTask();
    dateFormat(language, 'clock');
  }
  const i18n = await i18nReady;
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  const reactRoot = createRoot(root);
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <App engine={engine} router={router} />
        </I18nextProvider>
      </StrictMode>,
    ),
  );
}

void start();
