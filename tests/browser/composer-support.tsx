import type { ReactNode } from 'react';
import { BehaviorSubject } from 'rxjs';
import { vi } from 'vitest';
import type { AppSettings, MessageWindowView, TabEngine } from '../../src/engine/api';
import type { Conversation } from '../../src/protocol/entities';
import { ChatUiProvider, type ChatUi, useChatUi } from '../../src/ui/chat/ChatContext';
import type { Language } from '../../src/ui/i18n';
import { conversation, message, OTHER, SELF } from './support/entities';
import { defaultSettings, fakeTabEngine } from './support/fakeEngine';
import { mount, unmountAll } from './support/mount';

/** A stand-in for the engine with just what the composer, the action menu and the viewer use. */
export function fakeEngine() {
  const settings = new BehaviorSubject<AppSettings>(defaultSettings());
  const drafts = new BehaviorSubject<Readonly<Record<number, string>>>({});
  const messages = new BehaviorSubject<MessageWindowView>({ messages: [], hasOlder: false, loaded: true });
  const { engine, asTab } = fakeTabEngine(
    { settings, drafts, messages },
    {
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
    },
  );
  return { engine, settings, drafts, messages, asTab };
}

export { conversation, message, OTHER, SELF };

/** The ChatUi of the rendered tree, for tests that start a reply or an edit as the list's menu would. */
export const ui: { current: ChatUi | null } = { current: null };

function Spy() {
  ui.current = useChatUi();
  return null;
}

export async function render(
  children: ReactNode,
  options: { engine: TabEngine; conversation?: Conversation; language?: Language },
): Promise<HTMLElement> {
  return mount(
    <ChatUiProvider conversation={options.conversation ?? conversation()} selfId={SELF}>
      <Spy />
      {children}
    </ChatUiProvider>,
    {
      engine: options.engine,
      language: options.language,
      tag: 'section',
      style: 'height: 500px; display: flex; flex-direction: column; justify-content: flex-end',
      attributes: { 'data-chat-view': '' },
    },
  );
}

export async function unmount(): Promise<void> {
  await unmountAll();
  ui.current = null;
}
