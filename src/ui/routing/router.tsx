import { createRootRoute, createRoute, createRouter, Outlet } from '@tanstack/react-router';
import { DebugScreen } from '../debug/DebugScreen';
import { LoginScreen } from '../login/LoginScreen';
import { MainScreen } from '../main/MainScreen';
import { LoginGate, RequireSignedIn } from './SessionGate';
import { PATHS } from './paths';

const rootRoute = createRootRoute({ component: Outlet });

const loginRoute = (path: string, variant: 'standard' | 'satir', step: 'phone' | 'nickname') =>
  createRoute({
    getParentRoute: () => rootRoute,
    path,
    component: () => (
      <LoginGate variant={variant} step={step}>
        <LoginScreen variant={variant} step={step} />
      </LoginGate>
    ),
  });

/**
 * The main screen is one layout route: its children only name the URL, and MainScreen derives the left
 * view and the open chat from it, so moving between them never remounts the screen (spec §2: the URL
 * follows the left view).
 */
const mainRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'main',
  component: () => (
    <RequireSignedIn>
      <MainScreen />
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
  createRoute({ getParentRoute: () => rootRoute, path: PATHS.debug, component: DebugScreen }),
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

export function createAppRouter() {
  return createRouter({ routeTree, defaultPreload: false });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
