import { type RefObject, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Drag-and-drop over the whole chat (spec §2): while files are dragged over it an overlay covers the
 * chat, and a drop hands over the first file only. The chat is the element the composer sits in
 * (ChatView's root); the overlay is portalled to the body and placed over it, so a transformed or
 * scrolling ancestor cannot clip it, and lets the pointer through so the drop lands on the chat.
 */
export function DropOverlay(props: {
  anchor: RefObject<HTMLElement | null>;
  enabled: boolean;
  onFile: (file: File) => void;
}) {
  const { anchor, enabled, onFile } = props;
  const { t } = useTranslation();
  const [rect, setRect] = useState<DOMRect | null>(null);
  const onFileRef = useRef(onFile);
  onFileRef.current = onFile;

  useEffect(() => {
    const chat = anchor.current?.closest<HTMLElement>('[data-chat-view]') ?? anchor.current?.parentElement;
    if (!enabled || !chat) return;
    // dragenter/dragleave fire for every child crossed: count them to know when the drag left the chat.
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth++;
      setRect(chat.getBoundingClientRect());
    };
    const over = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setRect(null);
    };
    const drop = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setRect(null);
      const first = event.dataTransfer?.files[0];
      if (first) onFileRef.current(first);
    };
    chat.addEventListener('dragenter', enter);
    chat.addEventListener('dragover', over);
    chat.addEventListener('dragleave', leave);
    chat.addEventListener('drop', drop);
    return () => {
      chat.removeEventListener('dragenter', enter);
      chat.removeEventListener('dragover', over);
      chat.removeEventListener('dragleave', leave);
      chat.removeEventListener('drop', drop);
      setRect(null);
    };
  }, [anchor, enabled]);

  if (!rect) return null;
  return createPortal(
    <div
      className="composer-drop"
      style={{ top: rect.top, left: rect.left, width: rect.width, height: rect.height }}
      role="status"
    >
      <p>{t('chatActions.composer.dropHere')}</p>
    </div>,
    document.body,
  );
}
