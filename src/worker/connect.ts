import type { TabEngine } from '../engine/api';
import { linkedQuery } from './bridge';
import { BUILD } from './build';
import { engineHelp } from './engineHelp';
import { randomId } from './linkProtocol';
import { tabLockName } from './liveness';
import { holdForLife, webLocks } from './locks';
import { rateLimitedLog } from './rateLimitedLog';
import { noteEngineReload, pageLoadClaims } from './reloadMarker';
import { COMMAND_NAMES, type CommandName, QUERY_NAMES, VOID_COMMANDS } from './names';
import { TabPresence } from './tabPresence';
import { engineMode, TabLink } from './tabLink';


declare global {
  interface Window {
    /** The engine of this browser profile, for the UI and for scripting it from the console (README). */
    engine: TabEngine;
  }
}

export interface ConnectOptions {
  /** Another build took the engine, or upgraded its database; by default the tab reloads into it. */
  onReloadRequested?: () => void;
  /**
   * Learn of a dead engine worker from its Web Lock, at once (default true). `npm run bench` turns it off
   * to measure the heartbeat alone as its baseline.
   */
  wakeOnWorkerDeath?: boolean;
}

/** The calls waiting on each link, rejected together when it is lost. */
const waiting = new WeakMap<Promise<never>, Set<(error: unknown) => void>>();

/**
 * `call`, or the link's loss if that comes first. Not `Promise.race` with the link's `lost`: every race
 * leaves a reaction on `lost`, which lives as long as the link, so each command a tab ever sent (a read mark,
 * a viewport report for each scroll, issue 11) stayed in memory; here one reaction per link serves them all.
 */
function untilLost<T>(call: Promise<T>, lost: Promise<never>): Promise<T> {
  let calls = waiting.get(lost);
  if (!calls) {
    const set = new Set<(error: unknown) => void>();
    calls = set;
    waiting.set(lost, set);
    lost.catch((error: unknown) => {
      for (const reject of set) reject(error);
      set.clear();
    });
  }
  const pending = calls;
  return new Promise<T>((resolve, reject) => {
    pending.add(reject);
    call.then(resolve, reject).finally(() => pending.delete(reject));
  });
}

/**
 * Connects this tab to the profile's one engine (a SharedWorker, or the leader-election fallback where
 * there is none) and returns it as EngineApi: queries are Observables over the stream bridge, commands
 * return promises. The tab reports its TabState and notification permission by itself.
 */
export function connectEngine(options: ConnectOptions = {}): TabEngine {
  const tabId = randomId();
  const locks = webLocks();
  // Held for the tab's whole life: the engine tells a throttled background tab from a dead one by it.
  if (locks) void holdForLife(locks, tabLockName(tabId));
  const mode = engineMode();
  const reload = options.onReloadRequested ?? (() => location.reload());
  // Every warning of the tab's link, a few times a minute at most (docs/ui.md, "Site data cleared").
  const warn = rateLimitedLog((message, ...detail) => console.warn(message, ...detail), { now: () => Date.now() });
  const link = new TabLink(mode, tabId, {
    onReloadRequested: (into) => {
      if (noteEngineReload(into)) reload();
      else warn('the engine asked this tab to reload again; reload it by hand to get the current version');
    },
    locks: options.wakeOnWorkerDeath === false ? null : locks,
    claims: pageLoadClaims(BUILD),
    log: warn,
  });

  const invoke = async (name: CommandName, args: unknown[]): Promise<unknown> => {
    const { remote, lost } = await link.current();
    return untilLost(remote.invoke(name, args), lost);
  };
  const fire = (name: CommandName, args: unknown[]): void => {
    invoke(name, args).catch((error: unknown) => warn(`engine.${name} failed`, error));
  };

  const api: Record<string, unknown> = {};
  for (const name of QUERY_NAMES) api[name] = (...args: unknown[]) => linkedQuery(link.link, name, args);
  for (const name of COMMAND_NAMES) api[name] = (...args: unknown[]) => invoke(name, args);
  for (const name of VOID_COMMANDS) api[name] = (...args: unknown[]) => fire(name, args);

  const presence = new TabPresence({
    setTabState: (state) => fire('setTabState', [tabId, state]),
    setNotificationPermission: (permission) => fire('setNotificationPermission', [permission]),
  });
  const engine = Object.assign(api, {
    tabId,
    mode,
    build: BUILD,
    setOpenConversation: (conversationId: number | null) => presence.setOpenConversation(conversationId),
    noteReloadInto: (buildId: string) => noteEngineReload({ id: buildId, time: 0 }),
    help: engineHelp,
  }) as unknown as TabEngine;

  // Every new connection (the first, a reconnect, a return from the back-forward cache) hears who this tab is.
  link.link.subscribe((l) => {
    if (l) presence.reportAll();
  });
  window.addEventListener('pagehide', (event) => {
    // Sent now, on the link that is about to go: a page kept in the back-forward cache is not in view.
    void link.link.value?.remote.invoke('closeTab', [tabId]).catch(() => undefined);
    link.suspend(event.persisted);
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) link.resume();
  });
  presence.start();
  link.start();
  return engine;
}
