import { useCallback, useEffect, useRef } from 'react';
import type { MessageViewport } from '../../../engine/api';
import type { Message } from '../../../protocol/entities';
import { useEngine } from '../../hooks/EngineContext';
import { rowMessage } from './rows';
import type { VisibleRows } from './useScrollKeeping';

/**
 * Tells the engine which messages of the chat are on screen (issue 11: it keeps pages loaded ahead of them and
 * trims what is far away), and that the chat closed. While `keepTop()` says so (a quote being fetched), the
 * whole loaded top counts as on screen, so the engine does not trim what the fetch is walking through. A list
 * that follows the latest messages says so (`following`): in a burst (1,000 messages in a second) a report
 * reaches the engine hundreds of messages after the window it was made from, and the engine took the reader for
 * one that far up, trimmed the newer end away and stopped the list following (the `burst` benchmark's run whose
 * last message was never stored).
 */
export function useViewportReport(conversationId: number, messages: readonly Message[], keepTop: () => boolean) {
  const engine = useEngine();
  // A report comes from a scroll or a layout effect, after this render.
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const keepTopRef = useRef(keepTop);
  keepTopRef.current = keepTop;
  const lastViewport = useRef<string>('');

  const report = useCallback(
    ({ rows, first, last, aboveRows, following }: VisibleRows) => {
      let oldest: Message | null = null;
      let newest: Message | null = null;
      for (let i = first; i <= last; i++) {
        const message = rowMessage(rows[i]);
        if (!message) continue;
        oldest ??= message;
        newest = message;
      }
      const loaded = messagesRef.current;
      // Above every loaded row (the room above) or below them: the nearest loaded message.
      if (!oldest || !newest) {
        const edge = aboveRows ? loaded[0] : loaded[loaded.length - 1];
        if (!edge) return;
        oldest = newest = edge;
      }
      if (keepTopRef.current() && loaded[0]) oldest = loaded[0];
      const viewport: MessageViewport = { oldestId: oldest.id, newestId: newest.id, following };
      const key = `${viewport.oldestId}:${viewport.newestId}:${following}`;
      if (key === lastViewport.current) return;
      lastViewport.current = key;
      engine.setViewport(engine.tabId, conversationId, viewport);
    },
    [engine, conversationId],
  );

  useEffect(
    () => () => {
      lastViewport.current = '';
      engine.setViewport(engine.tabId, conversationId, null);
    },
    [engine, conversationId],
  );

  return report;
}
