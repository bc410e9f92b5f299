import { createMemoryHistory, createRouter, RouterProvider } from '@tanstack/react-router';
import { BehaviorSubject, NEVER, Subject } from 'rxjs';
import { vi } from 'vitest';
import type {
  AppSettings,
  ConnectionState,
  ConversationListItem,
  DeviceSession,
  CountriesView,
  SessionView,
  TabEngine,
} from '../../src/engine/api';
import { applySettings, normalizeSettings } from '../../src/engine/rules/settings';
import type { Conversation, Country } from '../../src/protocol/entities';
import type { Language } from '../../src/ui/i18n';
import { routeTree } from '../../src/ui/routing/router';
import { defaultSettings, fakeTabEngine } from './support/fakeEngine';
import { mount, unmountAll } from './support/mount';

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
    avatarUrl: null,
  });
  const conversations = new BehaviorSubject<readonly ConversationListItem[]>([]);
  const countries = new BehaviorSubject<CountriesView>({ countries: COUNTRIES, status: 'loaded', error: null });
  const connection = new BehaviorSubject<ConnectionState>('online');
  let settingsRecord = normalizeSettings(defaultSettings());
  const settings = new BehaviorSubject<AppSettings>(settingsRecord.settings);
  const refresh: { next: ReturnType<typeof deferred<void>> } = { next: deferred<void>() };
  const { engine, asTab } = fakeTabEngine(
    {
      session,
      conversations,
      countries,
      connection,
      settings,
      removedConversations: new Subject<number>(),
      notifications: NEVER,
      // The chats list shows each chat's unsent text (issue 23).
      drafts: new BehaviorSubject<Readonly<Record<number, string>>>({}),
      language: NEVER,
    },
    {
      loadCountries: vi.fn(async () => COUNTRIES),
      refreshConversations: vi.fn(() => refresh.next.promise),
      // The engine's own rule (off turns preview and sound off, on gives them back).
      updateSettings: vi.fn(async (patch: Partial<AppSettings>) => {
        settingsRecord = applySettings(settingsRecord, patch);
        settings.next(settingsRecord.settings);
        return settings.value;
      }),
      setOpenConversation: vi.fn(),
      noteReloadInto: vi.fn(() => true),
      setNotificationPermission: vi.fn(),
      // Account editing: the session follows, as the engine's does (a picture becomes a blob URL here).
      updateProfile: vi.fn(async (changes: { nickname?: string; image?: Blob | null }) => {
        const current = session.value;
        if (current.status !== 'ready') throw new Error('not signed in');
        const avatarUrl =
          changes.image === undefined ? current.avatarUrl : changes.image === null ? null : URL.createObjectURL(changes.image);
        const next = { ...current, nickname: changes.nickname ?? current.nickname, avatarUrl };
        session.next(next);
        return next;
      }),
      refreshProfile: vi.fn(async () => session.value),
      // The account page's sessions (docs/ui.md "Sessions"): this one alone, unless a test says otherwise.
      sessions: vi.fn(async (): Promise<DeviceSession[]> => [
        { id: 'current', browser: 'Chrome', os: 'Linux', createdAt: 0, lastActiveAt: Date.now(), current: true },
      ]),
      endSession: vi.fn(async (_id: string) => undefined),
      endOtherSessions: vi.fn(async () => 0),
    },
    { tabId: 'tab-1', mode: 'shared-worker' },
  );
  return { engine, session, conversations, countries, connection, refresh, asTab };
}

export function listItem(id: number, name: string, patch: Partial<Conversation> = {}, unread = 0): ConversationListItem {
  return {
    conversation: {
      id,
      name,
      is_group: false,
      group_type: 'normal',
      community_id: null,
      community_name: null,
      avatar: { meta: { url: '', thumbnail: '', is_default: true } },
      ...patch,
    } as Conversation,
    unreadCount: unread,
    isUnread: unread > 0,
    preview: null,
    sortTime: 0,
  };
}

/** Renders the app's real routes (memory history) around a fake engine, at `path`. */
export async function renderApp(engine: TabEngine, path = '/inbox', language: Language = 'en') {
  const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: [path] }) });
  const host = await mount(<RouterProvider router={router} />, {
    engine,
    language,
    style: 'height: 600px; width: 1000px; display: flex; flex-direction: column',
  });
  return { router, host };
}

export const unmount = unmountAll;
