import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { BehaviorSubject } from 'rxjs';
import { vi } from 'vitest';
import type { AppSettings, MessageWindowView, TabEngine } from '../../src/engine/api';
import type { Conversation, Message } from '../../src/protocol/entities';
import { ChatUiProvider, type ChatUi, useChatUi } from '../../src/ui/chat/ChatContext';
import { EngineProvider } from '../../src/ui/hooks/EngineContext';
import { createI18n, type Language } from '../../src/ui/i18n';

/** A stand-in for the engine with just what the composer, the action menu and the viewer use. */
export function fakeEngine() {
  const settings = new BehaviorSubject<AppSettings>({
    enterToSend: true,
    notificationsEnable: true,
    notificationsShowPreview: true,
    incomingMessagesSound: true,
  });
  const drafts = new BehaviorSubject<Readonly<Record<number, string>>>({});
  const messages = new BehaviorSubject<MessageWindowView>({ messages: [], hasOlder: false, loaded: true });
  const engine = {
    settings: () => settings,
    drafts: () => drafts,
    messages: () => messages,
    setDraft: vi.fn(async (id: number, text: string) => {
      const next = { ...drafts.value };
      if (text.trim() === '') delete next[id];
      else next[id] = text;
      drafts.next(next);
    }),
    sendMessage: vi.fn(async () => ({}) as never),
    editMessage: vi.fn(async () => ({}) as never),
    editTarget: vi.fn(async () => null as number | null),
    react: vi.fn(async () => ({}) as never),
    deleteMessages: vi.fn(async () => ({ warnings: [] }) as never),
    hideMessages: vi.fn(async () => ({ warnings: [] }) as never),
  };
  return { engine, settings, drafts, messages, asTab: engine as unknown as TabEngine };
}

export const SELF = 1;
export const OTHER = 2;

export function conversation(patch: Partial<Conversation> = {}): Conversation {
  const user = (id: number, nickname: string) => ({
    user: { id, user_id: id, stid: `u${id}`, nickname, phone_nr: '', image: { meta: { url: '', thumbnail: '', is_default: true } } },
    is_admin: false,
  });
  return {
    id: 10,
    name: 'Erik',
    is_demo: false,
    is_group: false,
    group_type: 'normal',
    is_community_announcements: false,
    read_only: false,
    settings: { reply_to: '0', show_numbers_to_all: '0', user_notifications_to_all: '0', all_invite: '1' },
    member: { is_admin: false, is_owner: false, permissions: { create_posts: false } },
    users: [user(SELF, 'Anna'), user(OTHER, 'Erik')],
    ...patch,
  } as Conversation;
}

export function message(patch: Partial<Message> = {}): Message {
  return {
    id: 100,
    stid: 's100',
    client_id: null,
    conversation_id: 10,
    conversation_stid: 'c10',
    user_id: SELF,
    message: 'hello',
    rich_message: null,
    type: 'text',
    created_at: String(Math.floor(Date.now() / 1000)),
    edited_at: 0,
    updated_at: 0,
    attachment: null,
    reactions: [],
    quoted: null,
    discussion: null,
    pinned: false,
    ...patch,
  };
}

/** The ChatUi of the rendered tree, for tests that start a reply or an edit as the list's menu would. */
export const ui: { current: ChatUi | null } = { current: null };

function Spy() {
  ui.current = useChatUi();
  return null;
}

let root: Root | null = null;
let host: HTMLElement | null = null;

export async function render(
  children: ReactNode,
  options: { engine: TabEngine; conversation?: Conversation; language?: Language },
): Promise<HTMLElement> {
  await unmount();
  const i18n = await createI18n(options.language ?? 'en');
  host = document.createElement('section');
  host.setAttribute('data-chat-view', '');
  host.style.cssText = 'height: 500px; display: flex; flex-direction: column; justify-content: flex-end';
  document.body.append(host);
  root = createRoot(host);
  await act(async () => {
    root?.render(
      <I18nextProvider i18n={i18n}>
        <EngineProvider engine={options.engine}>
          <ChatUiProvider conversation={options.conversation ?? conversation()} selfId={SELF}>
            <Spy />
            {children}
          </ChatUiProvider>
        </EngineProvider>
      </I18nextProvider>,
    );
  });
  return host;
}

export async function unmount(): Promise<void> {
  if (root) await act(async () => root?.unmount());
  host?.remove();
  root = null;
  host = null;
  ui.current = null;
}
