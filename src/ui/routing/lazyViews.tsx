import { lazyRouteComponent } from '@tanstack/react-router';
import { type ComponentType, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from '../common/ErrorBoundary';
import { ErrorScreen } from '../common/ErrorScreen';

/**
 * The main screen's views, each loaded with its chunk when first shown (issue 11): the chat view, the right
 * panel (chat settings), settings and communities. MainScreen derives its views from the URL instead of
 * rendering child routes, so these are TanStack Router's lazy route components used as plain components,
 * each in its own Suspense boundary: while one loads, the rest of the screen stays as it is. Each has its own
 * error boundary too: a view whose chunk cannot be fetched or that fails to render shows the error screen in
 * its pane, and the chats list beside it keeps working.
 */

/** Shown in a pane whose chunk is still loading; only after a moment, so a quick load shows no blink. */
function PaneLoading() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), 300);
    return () => clearTimeout(timer);
  }, []);
  return shown ? (
    <div className="app-waiting" role="status">
      {t('common.loading')}
    </div>
  ) : null;
}

function lazyView<P extends object>(View: ComponentType<P>): ComponentType<P> {
  return function LazyView(props: P) {
    return (
      <ErrorBoundary fallback={() => <ErrorScreen compact />}>
        <Suspense fallback={<PaneLoading />}>
          <View {...props} />
        </Suspense>
      </ErrorBoundary>
    );
  };
}

const chat = () => import('./chunks/chat');
const settings = () => import('./chunks/settings');
const explore = () => import('./chunks/explore');

export const ChatView = lazyView(lazyRouteComponent(chat, 'ChatView'));
export const InvalidChatView = lazyView(lazyRouteComponent(chat, 'InvalidChatView'));
export const RightPanel = lazyView(lazyRouteComponent(() => import('./chunks/chatSettings'), 'RightPanel'));
export const SettingsList = lazyView(lazyRouteComponent(settings, 'SettingsList'));
export const ControlsView = lazyView(lazyRouteComponent(settings, 'ControlsView'));
export const NotificationsView = lazyView(lazyRouteComponent(settings, 'NotificationsView'));
export const HelpView = lazyView(lazyRouteComponent(settings, 'HelpView'));
export const AccountView = lazyView(lazyRouteComponent(settings, 'AccountView'));
export const ExploreView = lazyView(lazyRouteComponent(explore, 'ExploreView'));
export const CommunityView = lazyView(lazyRouteComponent(explore, 'CommunityView'));
export const ChannelInfoView = lazyView(lazyRouteComponent(explore, 'ChannelInfoView'));
