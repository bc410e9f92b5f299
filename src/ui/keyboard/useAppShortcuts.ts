import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { ConversationListItem } from '../../engine/api';
import { useQuery } from '../hooks/useQuery';
import { PATHS } from '../routing/paths';
import { focusComposerOf } from './composerFocus';
import { neighbourChat, shortcutOf } from './shortcuts';

const NO_CHATS: readonly ConversationListItem[] = [];
const SEARCH = '.main-screen__left input[type="search"]';

/**
 * The main screen's keyboard shortcuts (issue 23; shortcuts.ts lists them): search, the previous and next
 * chat, and the shortcut list. A key some part of the page already handled (a menu's arrows, the composer's
 * Enter) or pressed inside a dialog is left alone. Enter on a chat's row in the list also asks that chat to
 * put the cursor in its message box once it opens. Returns whether the shortcut list is open, and its closer.
 */
export function useAppShortcuts(openId: number | null): { listOpen: boolean; closeList: () => void } {
  const navigate = useNavigate();
  const chats = useQuery((e) => e.conversations(), [], NO_CHATS);
  const [listOpen, setListOpen] = useState(false);
  // Read when a key comes, not when the listener was made.
  const latest = useRef({ chats, openId });
  latest.current = { chats, openId };

  useEffect(() => {
    const openChat = (id: number) => {
      focusComposerOf(id);
      void navigate({ to: '/inbox/$conversationId', params: { conversationId: String(id) } });
    };
    const focusSearch = () => {
      const field = document.querySelector<HTMLInputElement>(SEARCH);
      if (field) {
        field.focus();
        field.select();
        return;
      }
      // Another left view (settings, a form): the chats list, whose search takes the focus once drawn.
      void navigate({ to: PATHS.inbox }).then(() => {
        requestAnimationFrame(() => document.querySelector<HTMLInputElement>(SEARCH)?.focus());
      });
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('dialog')) return;
      if (event.key === 'Enter' && !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
        const row = target?.closest<HTMLElement>('.main-screen__left a[data-conversation-id]');
        const id = Number(row?.dataset.conversationId);
        if (row && Number.isInteger(id)) focusComposerOf(id);
        return;
      }
      const action = shortcutOf(event);
      if (!action) return;
      event.preventDefault();
      switch (action) {
        case 'search':
          focusSearch();
          break;
        case 'list':
          setListOpen(true);
          break;
        case 'previousChat':
        case 'nextChat': {
          const { chats: list, openId: open } = latest.current;
          const next = neighbourChat(
            list.map((c) => c.conversation.id),
            open,
            action === 'previousChat' ? -1 : 1,
          );
          if (next !== null) openChat(next);
          break;
        }
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [navigate]);

  return { listOpen, closeList: () => setListOpen(false) };
}
