import { useMemo } from 'react';
import { BehaviorSubject, map } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { getI18n } from 'react-i18next';
import type { Conversation, Message } from '../../src/protocol/entities';
import { ChatUiProvider } from '../../src/ui/chat/ChatContext';
import { MessageList } from '../../src/ui/chat/list/MessageList';
import * as messageTime from '../../src/ui/chat/message/messageTime';
import { useObservable } from '../../src/ui/hooks/useQuery';
import { loadTexts } from '../../src/ui/texts';
import { chat, listEngine, msg, OTHER, SELF, unmountList } from './chat-list-support';
import { act } from './support/act';
import { mount } from './support/mount';

// Every message row formats its time once per render (a bubble and an event alike): counting the calls counts
// the rows that rendered. The module keeps its own code; only the calls are watched.
vi.mock('../../src/ui/chat/message/messageTime', { spy: true });

afterEach(unmountList);

const many = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
const list = () => document.querySelector<HTMLElement>('[role="log"]') as HTMLElement;
const frames = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

/**
 * The chat as the chat view renders it: its conversation comes from the engine and changes with each message.
 * It crosses the worker port whole (the stream bridge keeps objects only in arrays), so every emission is a
 * structured clone: a new `users` array, new member objects, each time, however little changed.
 */
function Chat({ source }: { source: BehaviorSubject<Conversation> }) {
  const cloned = useMemo(() => source.pipe(map((c) => structuredClone(c))), [source]);
  const conversation = useObservable(cloned, source.value);
  return (
    <ChatUiProvider conversation={conversation} selfId={SELF}>
      <MessageList conversationId={10} latest={conversation.last_message} />
    </ChatUiProvider>
  );
}

/** A group chat of 40 messages opened at the bottom in a tall box (about 18 rows on screen). */
async function openGroup() {
  const engine = listEngine();
  const shown = many(1, 40);
  const conversation = new BehaviorSubject(
    chat({ is_group: true, name: 'Group', member_count: 2, last_message: shown[39] ?? null, last_message_time: '1' }),
  );
  engine.messages.next({ messages: shown, hasOlder: false, hasNewer: false, loaded: true });
  await mount(<Chat source={conversation} />, {
    engine: engine.asTab,
    tag: 'section',
    style: 'height: 1000px; width: 600px',
    attributes: { class: 'chat-view' },
  });
  await expect.element(page.getByText('Message number 40')).toBeVisible();
  await frames();
  return { ...engine, conversation, shown };
}

/** A new message from Erik, as the engine delivers it: the window's array grows, the chat gets a new last message. */
async function arrive(engine: Awaited<ReturnType<typeof openGroup>>, message: Message) {
  const messages = [...engine.messages.value.messages, message];
  await act(async () => {
    engine.conversation.next({ ...engine.conversation.value, last_message: message, last_message_time: message.created_at });
    engine.messages.next({ ...engine.messages.value, messages });
  });
  await expect.element(page.getByText(message.message)).toBeVisible();
  await frames();
}

describe('one render per change (issue 11)', () => {
  it('renders only the new row (and at most one neighbour) when a message arrives, with many rows on screen', async () => {
    const engine = await openGroup();
    const rendered = list().querySelectorAll('[data-row-kind="message"]').length;
    expect(rendered).toBeGreaterThanOrEqual(18);
    const renders = vi.mocked(messageTime.messageTime);
    for (const id of [41, 42, 43]) {
      renders.mockClear();
      await arrive(engine, msg(id, { user_id: OTHER }));
      expect(renders.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(renders.mock.calls.length).toBeLessThanOrEqual(2);
    }
  });

  it('renders no row when the chat changes in nothing the rows show (its unread count)', async () => {
    const engine = await openGroup();
    const renders = vi.mocked(messageTime.messageTime);
    renders.mockClear();
    await act(async () => engine.conversation.next({ ...engine.conversation.value, unread_message_count: 3 }));
    await frames();
    expect(renders).not.toHaveBeenCalled();
  });

  it('builds no date formatter while messages arrive: one per language and format, made once', async () => {
    const engine = await openGroup();
    const Original = Intl.DateTimeFormat;
    let built = 0;
    Intl.DateTimeFormat = new Proxy(Original, {
      construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        built += 1;
        return new target(...args);
      },
    });
    try {
      for (const id of [41, 42, 43, 44, 45]) await arrive(engine, msg(id));
      // Scrolling up renders rows that were not rendered yet: still no new formatter.
      list().scrollTop = 0;
      await frames();
      await expect.element(page.getByText('Message number 2', { exact: true })).toBeVisible();
    } finally {
      Intl.DateTimeFormat = Original;
    }
    expect(built).toBe(0);
  });

  it('gives its rows one translation for the chat: mounting rows subscribes none to i18next, and a new language reaches every row', async () => {
    await openGroup();
    const i18n = getI18n() as unknown as { observers: Record<string, Map<unknown, number>>; changeLanguage(l: string): Promise<unknown> };
    const listeners = () => i18n.observers.languageChanged?.size ?? 0;
    const rows = list().querySelectorAll('article.msg').length;
    expect(rows).toBeGreaterThan(15);
    // react-i18next's useTranslation subscribes each component that calls it: a row and its parts did, several
    // listeners per row (issue 24: a sixth of the tab's time in a burst of messages went to those mounts).
    expect(listeners()).toBeLessThan(5);
    await loadTexts(getI18n(), 'sv');
    await act(async () => {
      await i18n.changeLanguage('sv');
    });
    await expect.element(page.getByRole('article', { name: 'Meddelande från Erik' }).first()).toBeInTheDocument();
    expect(list().querySelectorAll('article[aria-label^="Message from"]')).toHaveLength(0);
  });
});
