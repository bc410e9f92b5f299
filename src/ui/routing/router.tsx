import {
  type AsyncRouteComponent,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
} from '@tanstack/react-router';
import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { reportRenderError } from '../../reporting/reporter';
import { ErrorScreen } from '../common/ErrorScreen';
import { useI18nInstance } from '../hooks/useI18nInstance';
import type { TextGroup } from '../textGroups';
import { hasTexts, textsReady } from '../texts';
import { LoginGate, RequireSignedIn, Waiting } from './SessionGate';
import { PATHS } from './paths';

/**
 * Each screen is a chunk of its own (issue 11), loaded by TanStack Router's lazy route components when first
 * shown: /login never fetches the main screen, the chat view, settings, communities, debug or the protest
 * page. The session gates stay in the entry chunk and run first, so a signed-out reader at `/` loads only
 * the login chunk, and a signed-in one at `/login` only the main screen's. The chunks are the modules of
 * `./chunks/`, one per screen (the build report and the code-splitting test name them by these files).
 */
const LoginScreen = lazyRouteComponent(() => import('./chunks/login'), 'LoginScreen');
const SatirLoginScreen = lazyRouteComponent(() => import('./chunks/satir'), 'SatirLoginScreen');
const MainScreen = lazyRouteComponent(() => import('./chunks/main'), 'MainScreen');
const DebugScreen = lazyRouteComponent(() => import('./chunks/debug'), 'DebugScreen');

/**
 * The screen to fetch while the entry chunk waits for its texts and the session, so its chunk is not
 * fetched only after them. The main screen only when `mainLikely` (signedInHint.ts): a signed-out reader
 * never needs it.
 */
export function preloadScreen(pathname: string, mainLikely: boolean): void {
  const screen =
    pathname === PATHS.login || pathname === PATHS.nickname
      ? LoginScreen
      : pathname === PATHS.satir || pathname === PATHS.satirNickname
        ? SatirLoginScreen
        : pathname === PATHS.debug
          ? DebugScreen
          : mainLikely
            ? MainScreen
            : null;
  void screen?.preload?.();
}

/**
 * Shows the session gate's "Loading…" until a group of texts (an i18next namespace) is in, fetching the
 * screen's chunk alongside them rather than after them. (State and an effect rather than React's `use`, which
 * wants the same promise again after suspending, and under `act` in the browser tests never let the first
 * render finish.)
 */
function ScreenTexts({ group, screen, children }: { group: TextGroup; screen: AsyncRouteComponent<never>; children: ReactNode }) {
  const i18n = useI18nInstance();
  const [ready, setReady] = useState(() => hasTexts(i18n, group));
  const [failed, setFailed] = useState<unknown>(null);
  useEffect(() => {
    if (ready) return;
    void screen.preload?.();
    let live = true;
    textsReady(i18n, group).then(
      () => live && setReady(true),
      (error: unknown) => live && setFailed(error ?? new Error('texts not loaded')),
    );
    return () => {
      live = false;
    };
  }, [group, i18n, ready, screen]);
  // A chunk that cannot be fetched is a render error, as a screen's own chunk's is: the app's error page.
  if (failed) throw failed;
  return ready ? children : <Waiting />;
}

/**
 * A screen while its chunk (and, behind the login screens, its group of texts) loads: the same "Loading…"
 * as the session gate's, so nothing blinks between them.
 */
function loading<P extends object>(Screen: AsyncRouteComponent<P>, group?: TextGroup) {
  return function Loading(props: P) {
    const screen = <Screen {...props} />;
    return (
      <Suspense fallback={<Waiting />}>
        {group ? (
          <ScreenTexts group={group} screen={Screen as AsyncRouteComponent<never>}>
            {screen}
          </ScreenTexts>
        ) : (
          screen
        )}
      </Suspense>
    );
  };
}

const Login = loading(LoginScreen);
// The protest page's own texts are the app group's (satir.json), so /login never carries them.
const SatirLogin = loading(SatirLoginScreen, 'app');
const Main = loading(MainScreen, 'app');
const Debug = loading(DebugScreen, 'app');

const rootRoute = createRootRoute({ component: Outlet });

const loginRoute = (path: string, variant: 'standard' | 'satir', step: 'phone' | 'nickname') =>
  createRoute({
    getParentRoute: () => rootRoute,
    path,
    component: () => (
      <LoginGate variant={variant} step={step}>
        {variant === 'satir' ? <SatirLogin step={step} /> : <Login variant="standard" step={step} />}
      </LoginGate>
    ),
  });

/**
 * The main screen is one layout route: its children only name the URL, and MainScreen derives the left
 * view and the open chat from it, so moving between them never remounts the screen (spec §2: the URL
 * follows the left view). Its views (chat, settings, communities) are chunks of their own too (lazyViews.tsx).
 */
const mainRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'main',
  component: () => (
    <RequireSignedIn>
      <Main />
    </RequireSignedIn>
  ),
});

const mainChild = (path: string) => createRoute({ getParentRoute: () => mainRoute, path, component: () => null });

export const routeTree = rootRoute.addChildren([
  loginRoute(PATHS.login, 'standard', 'phone'),
  loginRoute(PATHS.nickname, 'standard', 'nickname'),
  loginRoute(PATHS.satir, 'satir', 'phone'),
  loginRoute(PATHS.satirNickname, 'satir', 'nickname'),
  // The debug screen sets the hosts, so it opens without signing in (it has its own password, spec §2).
  createRoute({ getParentRoute: () => rootRoute, path: PATHS.debug, component: Debug }),
  mainRoute.addChildren([
    mainChild('/'),
    mainChild(PATHS.inbox),
    mainChild('/inbox/$conversationId'),
    mainChild(PATHS.explore),
    mainChild('/explore/$communityId'),
    mainChild('/explore/$communityId/channels/$channelId'),
    mainChild(PATHS.settings),
    mainChild(PATHS.settingsControls),
    mainChild(PATHS.settingsNotifications),
    mainChild(PATHS.settingsHelp),
    mainChild(PATHS.profile),
    // Design §4: the unnamed wildcard paths; any unknown path renders the main screen.
    mainChild('$'),
  ]),
]);

/**
 * A render error in a route shows our own error screen, translated and reported, never the router's built-in
 * one (design.md §4). The router's boundary resets when the location changes.
 */
function RouteError() {
  return <ErrorScreen />;
}

export function createAppRouter() {
  return createRouter({
    routeTree,
    defaultPreload: false,
    defaultErrorComponent: RouteError,
    defaultOnCatch: (error, info) => reportRenderError(error, info.componentStack),
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
