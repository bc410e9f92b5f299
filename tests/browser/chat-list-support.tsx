import { BehaviorSubject } from 'rxjs';
import { vi } from 'vitest';
import type { FirstUnread, MessageWindowView, OutboxEntry, TabEngine } from '../../src/engine/api';
import type { Conversation, Message } from '../../src/protocol/entities';
import { ChatUiProvider } from '../../src/ui/chat/ChatContext';
import { MessageList } from '../../src/ui/chat/list/MessageList';
import type { Language } from '../../src/ui/i18n';
import { conversation, message, OTHER, SELF } from './support/entities';
import { defaultSettings, fakeTabEngine } from './support/fakeEngine';
import { mount, unmountAll } from './support/mount';
import '../../src/ui/styles.css';
import '../../src/ui/chat/chat.css';

/** A stand-in engine for the message list: its messages, outbox and the commands the list calls. */
export function listEngine() {
  const messages = new BehaviorSubject<MessageWindowView>({ messages: [], hasOlder: false, loaded: true });
  const outbox = new BehaviorSubject<readonly OutboxEntry[]>([]);
  const { engine, asTab } = fakeTabEngine(
    {
      messages,
      outbox,
      settings: new BehaviorSubject(defaultSettings()),
      drafts: new BehaviorSubject({}),
      receipts: new BehaviorSubject({}),
    },
    {
      loadOlderMessages: vi.fn(async () => false),
      loadLatestMessages: vi.fn(async () => undefined),
      setViewport: vi.fn(),
      markVisible: vi.fn(),
      retrySend: vi.fn(async () => undefined),
      discardSend: vi.fn(async () => undefined),
    },
    { tabId: 'tab-1' },
  );
  return { engine, messages, outbox, asTab };
}

export { OTHER, SELF };

export const chat = conversation;

/** Message `id` of conversation 10, from Erik, an hour ago (ids in order of time). */
/**
 * An hour ago, but never before today's local midnight: the day separator then says "Today" whatever the
 * hour the tests run at (an hour ago was yesterday between 00:00 and 01:00).
 */
function recentToday(): number {
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  return Math.max(Math.floor(midnight.getTime() / 1000), Math.floor(Date.now() / 1000) - 3600);
}

export function msg(id: number, patch: Partial<Message> = {}): Message {
  return message({
    id,
    stid: `s${id}`,
    user_id: OTHER,
    message: `Message number ${id}`,
    created_at: String(recentToday() + id),
    ...patch,
  });
}

/** A send of Anna's in conversation 10's outbox, pending unless `patch` says otherwise. */
export function outboxEntry(patch: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    localId: 'out_1',
    userId: SELF,
    conversationId: 10,
    comment: null,
    clientId: 5,
    text: '',
    quotedMessageId: null,
    attachment: null,
    createdAt: Date.now(),
    status: 'pending',
    error: null,
    attempts: 0,
    ...patch,
  };
}

/** Renders the list (in a 500 px high box, as in the chat view) for conversation 10. */
export async function renderList(
  engine: TabEngine,
  options: { conversation?: Conversation; language?: Language; firstUnread?: FirstUnread | null } = {},
) {
  const conversation = options.conversation ?? chat();
  const unread = options.firstUnread === undefined ? {} : { firstUnread: options.firstUnread, hadUnread: options.firstUnread !== null };
  return mount(
    <ChatUiProvider conversation={conversation} selfId={SELF}>
      <MessageList conversationId={10} latest={conversation.last_message} {...unread} />
    </ChatUiProvider>,
    {
      engine,
      language: options.language,
      tag: 'section',
      style: 'height: 500px; width: 600px',
      attributes: { class: 'chat-view' },
    },
  );
}

export const unmountList = unmountAll;
