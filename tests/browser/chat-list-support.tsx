import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { BehaviorSubject } from 'rxjs';
import { vi } from 'vitest';
import type { AppSettings, MessageWindowView, OutboxEntry, TabEngine } from '../../src/engine/api';
import type { Conversation, Message } from '../../src/protocol/entities';
import { ChatUiProvider } from '../../src/ui/chat/ChatContext';
import { MessageList } from '../../src/ui/chat/list/MessageList';
import { EngineProvider } from '../../src/ui/hooks/EngineContext';
import { createI18n, type Language } from '../../src/ui/i18n';
import '../../src/ui/styles.css';
import '../../src/ui/chat/chat.css';

/** A stand-in engine for the message list: its messages, outbox and the commands the list calls. */
export function listEngine() {
  const messages = new BehaviorSubject<MessageWindowView>({ messages: [], hasOlder: false, loaded: true });
  const outbox = new BehaviorSubject<readonly OutboxEntry[]>([]);
  const settings = new BehaviorSubject<AppSettings>({
    enterToSend: true,
    notificationsEnable: true,
    notificationsShowPreview: true,
    incomingMessagesSound: true,
  });
  const engine = {
    messages: () => messages,
    outbox: () => outbox,
    settings: () => settings,
    drafts: () => new BehaviorSubject({}),
    receipts: () => new BehaviorSubject({}),
    loadOlderMessages: vi.fn(async () => false),
    markVisible: vi.fn(),
    retrySend: vi.fn(async () => undefined),
    discardSend: vi.fn(async () => undefined),
  };
  return { engine, messages, outbox, asTab: engine as unknown as TabEngine };
}

export const SELF = 1;
export const OTHER = 2;

export function chat(patch: Partial<Conversation> = {}): Conversation {
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
    member_count: 2,
    settings: { reply_to: '0', show_numbers_to_all: '0', user_notifications_to_all: '0', all_invite: '1' },
    member: { is_admin: false, is_owner: false, permissions: { create_posts: false } },
    users: [user(SELF, 'Anna'), user(OTHER, 'Erik')],
    ...patch,
  } as Conversation;
}

export function msg(id: number, patch: Partial<Message> = {}): Message {
  return {
    id,
    stid: `s${id}`,
    client_id: null,
    conversation_id: 10,
    conversation_stid: 'c10',
    user_id: OTHER,
    message: `Message number ${id}`,
    rich_message: null,
    type: 'text',
    created_at: String(Math.floor(Date.now() / 1000) - 3600 + id),
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

let root: Root | null = null;
let host: HTMLElement | null = null;

/** Renders the list (in a 500 px high box, as in the chat view) for conversation 10. */
export async function renderList(engine: TabEngine, options: { conversation?: Conversation; language?: Language } = {}) {
  await unmountList();
  const i18n = await createI18n(options.language ?? 'en');
  host = document.createElement('section');
  host.className = 'chat-view';
  host.style.cssText = 'height: 500px; width: 600px';
  document.body.append(host);
  root = createRoot(host);
  await act(async () => {
    root?.render(
      <I18nextProvider i18n={i18n}>
        <EngineProvider engine={engine}>
          <ChatUiProvider conversation={options.conversation ?? chat()} selfId={SELF}>
            <MessageList conversationId={10} />
          </ChatUiProvider>
        </EngineProvider>
      </I18nextProvider>,
    );
  });
  return host;
}

export async function unmountList(): Promise<void> {
  if (root) await act(async () => root?.unmount());
  host?.remove();
  root = null;
  host = null;
}
