import { useNavigate, useParams, useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEngine } from '../hooks/EngineContext';
import { ChatsList } from '../inbox/ChatsList';
import { NewChatForm } from '../inbox/NewChatForm';
import { type NewChatKind, NewChatPicker } from '../inbox/NewChatPicker';
import { ShortcutList } from '../keyboard/ShortcutList';
import { useAppShortcuts } from '../keyboard/useAppShortcuts';
import { useBrowserNotifications } from '../notifications/useBrowserNotifications';
import { useUnreadTitle } from '../notifications/useUnreadTitle';
// The chat view, the right panel, settings and communities load as chunks of their own (issue 11).
import {
  AccountView,
  ChannelInfoView,
  ChatView,
  CommunityView,
  ControlsView,
  ExploreView,
  HelpView,
  InvalidChatView,
  NotificationsView,
  RightPanel,
  SettingsList,
} from '../routing/lazyViews';
import { UpdateBar } from '../pwa/UpdateBar';
import { PATHS } from '../routing/paths';
import { ConnectionIndicator } from './ConnectionIndicator';
import { StorageFullBanner } from './StorageFullBanner';
import { EmptyPane } from './EmptyPane';
import { IconMenu } from './IconMenu';
import { idParamOf, isCommunitiesView, type LeftView, leftViewOf, sectionOf } from './leftView';
import { type RightPanelState, type RightPanelView, shownPanel } from './rightPanel';
import { useCommunitiesGate } from './useCommunitiesAllowed';
import './main.css';

/** The chats-list side views that have no URL of their own (spec §2 left panel views). */
type Creating = 'picker' | NewChatKind | null;

/**
 * The main screen (spec §2): the icon menu, the left panel (its view follows the URL) and the chat panel
 * (the chat of /inbox/{id}). On a narrow screen it shows the list or the chat, not both.
 */
export function MainScreen() {
  const { t } = useTranslation();
  const engine = useEngine();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const params = useParams({ strict: false });
  const openId = idParamOf(params.conversationId);
  // `/inbox/abc`: a chat URL whose id is no conversation id (spec §8 'Invalid conversation ID provided').
  const badChatId = params.conversationId !== undefined && openId === null;
  const view = leftViewOf(pathname);
  const communitiesGate = useCommunitiesGate();
  const communities = communitiesGate === 'allowed';
  const [creating, setCreating] = useState<Creating>(null);
  const [panel, setPanel] = useState<RightPanelState | null>(null);
  useBrowserNotifications();
  const shortcuts = useAppShortcuts(openId);
  useUnreadTitle();

  // Another left view closes the chat creation screens.
  useEffect(() => {
    if (view !== 'chats') setCreating(null);
  }, [view]);

  // Spec §4: a chat the user left or was removed from closes, back to the list.
  useEffect(() => {
    const subscription = engine.removedConversations().subscribe((id) => {
      if (id === openId) void navigate({ to: PATHS.inbox, replace: true });
    });
    return () => subscription.unsubscribe();
  }, [engine, navigate, openId]);

  // Communities are for some countries only: their views elsewhere are the chats list, and the URL
  // follows the left view (spec §2), so /explore… becomes /inbox once the user's country is known to say no.
  const shownView: LeftView = isCommunitiesView(view) && !communities ? 'chats' : view;
  useEffect(() => {
    if (isCommunitiesView(view) && communitiesGate === 'denied') void navigate({ to: PATHS.inbox, replace: true });
  }, [view, communitiesGate, navigate]);

  // The panel belongs to the chat it was opened for: another chat starts without it.
  useEffect(() => {
    setPanel((current) => (current && current.conversationId !== openId ? null : current));
  }, [openId]);
  const panelView = shownPanel(panel, openId, shownView === 'chats');
  const closePanel = useCallback(() => setPanel(null), []);
  const setPanelView = useCallback(
    (next: RightPanelView) => setPanel((current) => (current ? { ...current, view: next } : current)),
    [],
  );
  // Spec §4: leaving or deleting the selected group clears the selection and returns to the chats list.
  const leaveChat = useCallback(() => {
    setPanel(null);
    void navigate({ to: PATHS.inbox, replace: true });
  }, [navigate]);
  // Stable, so the memoised list and menu render again only when what they show changes, not each time
  // the screen does (the session, the countries and the route each render it while a tab starts).
  const pickNewChat = useCallback(() => setCreating('picker'), []);
  const stopCreating = useCallback(() => setCreating(null), []);
  const reloadList = useCallback(() => void navigate({ to: PATHS.inbox }), [navigate]);

  let left;
  switch (shownView) {
    case 'chats':
      left =
        creating === 'picker' ? (
          <NewChatPicker onPick={setCreating} onBack={() => setCreating(null)} />
        ) : creating ? (
          <NewChatForm
            key={creating}
            kind={creating}
            onCancel={() => setCreating('picker')}
            onCreated={(id) => {
              setCreating(null);
              void navigate({ to: '/inbox/$conversationId', params: { conversationId: String(id) } });
            }}
          />
        ) : (
          <ChatsList openId={openId} communities={communities} onAdd={pickNewChat} onRetry={reloadList} />
        );
      break;
    case 'explore':
      left = <ExploreView />;
      break;
    case 'community':
      left = <CommunityView communityId={idParamOf(params.communityId)} />;
      break;
    case 'channel':
      left = <ChannelInfoView communityId={idParamOf(params.communityId)} channelId={idParamOf(params.channelId)} />;
      break;
    case 'settings':
      left = <SettingsList />;
      break;
    case 'settingsControls':
      left = <ControlsView />;
      break;
    case 'settingsNotifications':
      left = <NotificationsView />;
      break;
    case 'settingsHelp':
      left = <HelpView />;
      break;
    case 'account':
      left = <AccountView />;
      break;
  }

  const chatOpen = (openId !== null || badChatId) && shownView === 'chats';
  const classes = ['main-screen', chatOpen ? 'main-screen--chat-open' : '', panelView ? 'main-screen--panel-open' : ''];
  return (
    <div className={classes.filter(Boolean).join(' ')}>
      <IconMenu section={sectionOf(shownView)} communities={communities} onChats={stopCreating} />
      <div className="main-screen__left">
        <ConnectionIndicator />
        <StorageFullBanner />
        {left}
      </div>
      <main className="main-screen__center" aria-label={t('nav.chatPanel')}>
        {openId !== null ? (
          <ChatView
            key={openId}
            conversationId={openId}
            onOpenSettings={() => setPanel({ conversationId: openId, view: { kind: 'chatSettings' } })}
          />
        ) : badChatId ? (
          <InvalidChatView />
        ) : (
          <EmptyPane view={shownView} />
        )}
      </main>
      {panelView && openId !== null ? (
        <RightPanel
          key={openId}
          conversationId={openId}
          view={panelView}
          onView={setPanelView}
          onClose={closePanel}
          onGone={leaveChat}
        />
      ) : null}
      <UpdateBar />
      {shortcuts.listOpen ? <ShortcutList onClose={shortcuts.closeList} /> : null}
    </div>
  );
}
