import { createMemoryHistory, createRouter, RouterProvider } from '@tanstack/react-router';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { BehaviorSubject, NEVER, Subject } from 'rxjs';
import { vi } from 'vitest';
import type {
  AppSettings,
  ConnectionState,
  ConversationListItem,
  CountriesView,
  SessionView,
  TabEngine,
} from '../../src/engine/api';
import type { Conversation, Country } from '../../src/protocol/entities';
import { EngineProvider } from '../../src/ui/hooks/EngineContext';
import { createI18n, type Language } from '../../src/ui/i18n';
import { routeTree } from '../../src/ui/routing/router';

const COUNTRIES: Country[] = [
  { code: 'SE', name: 'Sweden', cc: '46', validation: '^0?7[02369]\\d{7}$', validation_abroad: '^\\+467[02369]\\d{7}$', format_international: ['', ''], endpoints: { http: '', ws: '' }, communities_enabled: false },
  { code: 'ID', name: 'Indonesia', cc: '62', validation: '^0?8[1-9]\\d{7,10}$', validation_abroad: '^\\+628[1-9]\\d{7,10}$', format_international: ['', ''], endpoints: { http: '', ws: '' }, communities_enabled: true },
];

/** A promise the test settles by hand, to hold an engine answer back. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A stand-in TabEngine with what the main screen and the chats list use; every answer is under the test's control. */
export function fakeEngine(countryCode: '46' | '62' = '46') {
  const session = new BehaviorSubject<SessionView>({
    status: 'ready',
    userId: 1,
    nickname: 'Anna',
    phone: countryCode === '46' ? '+46701234561' : '+628123456701',
    countryCode,
  });
  const conversations = new BehaviorSubject<readonly ConversationListItem[]>([]);
  const countries = new BehaviorSubject<CountriesView>({ countries: COUNTRIES, status: 'loaded', error: null });
  const connection = new BehaviorSubject<ConnectionState>('online');
  const settings = new BehaviorSubject<AppSettings>({
    enterToSend: true,
    notificationsEnable: true,
    notificationsShowPreview: true,
    incomingMessagesSound: true,
  });
  const removed = new Subject<number>();
  const refresh: { next: ReturnType<typeof deferred<void>> } = { next: deferred<void>() };
  const engine = {
    tabId: 'tab-1',
    mode: 'shared-worker',
    session: () => session,
    conversations: () => conversations,
    countries: () => countries,
    connection: () => connection,
    settings: () => settings,
    removedConversations: () => removed,
    notifications: () => NEVER,
    language: () => NEVER,
    loadCountries: vi.fn(async () => COUNTRIES),
    refreshConversations: vi.fn(() => refresh.next.promise),
    updateSettings: vi.fn(async (patch: Partial<AppSettings>) => {
      settings.next({ ...settings.value, ...patch });
      return settings.value;
    }),
    setOpenConversation: vi.fn(),
    setNotificationPermission: vi.fn(),
  };
  return { engine, conversations, countries, connection, refresh, asTab: engine as unknown as TabEngine };
}

export function listItem(id: number, name: string, patch: Partial<Conversation> = {}, unread = 0): ConversationListItem {
  return {
    conversation: {
      id,
      name,
      is_group: false,
      group_type: 'normal',
      community_id: null,
      avatar: { meta: { url: '', thumbnail: '', is_default: true } },
      ...patch,
    } as Conversation,
    unreadCount: unread,
    isUnread: unread > 0,
    preview: null,
    sortTime: 0,
  };
}

let root: Root | null = null;
let host: HTMLElement | null = null;

/** Renders the app's real routes (memory history) around a fake engine, at `path`. */
export async function renderApp(engine: TabEngine, path = '/inbox', language: Language = 'en') {
  await unmount();
  const i18n = await createI18n(language);
  const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: [path] }) });
  host = document.createElement('div');
  host.style.cssText = 'height: 600px; width: 1000px; display: flex; flex-direction: column';
  document.body.append(host);
  root = createRoot(host);
  await act(async () => {
    root?.render(
      <I18nextProvider i18n={i18n}>
        <EngineProvider engine={engine}>
          <RouterProvider router={router} />
        </EngineProvider>
      </I18nextProvider>,
    );
  });
  return { router, host };
}

export async function unmount(): Promise<void> {
  const r = root;
  root = null;
  if (r) await act(async () => r.unmount());
  host?.remove();
  host = null;
}
