import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Message } from '../../../protocol/entities';
import { trapTab, useDismiss } from '../actions/useDismiss';
import { useChatUi } from '../ChatContext';
import './media.css';

/** The media viewer (spec §2) of the image or video message in ChatUi.media; nothing when none is open. */
export function MediaViewer() {
  const { media, openMedia } = useChatUi();
  if (!media) return null;
  return <MediaDialog key={media.id} message={media} onClose={() => openMedia(null)} />;
}

/** Where a message's media is: the attachment's URL, else its file's. */
export function mediaUrl(message: Message): string | null {
  const a = message.attachment;
  return a?.url || a?.file_info?.url || null;
}

type LoadState = 'loading' | 'loaded' | 'error';

function MediaDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const url = mediaUrl(message);
  const video = message.attachment?.type === 'video';
  const [state, setState] = useState<LoadState>(url ? 'loading' : 'error');
  useDismiss(true, dialogRef, onClose);

  useEffect(() => {
    closeRef.current?.focus();
  }, []);

  const name = message.attachment?.name || (video ? t('chatActions.media.video') : t('chatActions.media.image'));
  const shown = state === 'loaded' ? '' : ' media-hidden';
  return createPortal(
    <div className="media-backdrop">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-label={t('chatActions.media.viewer')}
        aria-busy={state === 'loading'}
        className="media-dialog"
        data-state={state}
        onKeyDown={(event) => trapTab(event, dialogRef.current)}
        onClick={(event) => event.stopPropagation()}
      >
        <button ref={closeRef} type="button" className="media-close" aria-label={t('chatActions.media.close')} onClick={onClose}>
          <span aria-hidden="true">✕</span>
        </button>
        {state === 'loading' ? (
          <p role="status" className="media-status">
            {t('chatActions.media.loading')}
          </p>
        ) : null}
        {state === 'error' ? (
          <p role="alert" className="media-status media-error">
            {t('chatActions.media.failed')}
          </p>
        ) : null}
        {url && state !== 'error' ? (
          video ? (
            <video
              className={`media-content${shown}`}
              src={url}
              controls
              aria-label={name}
              onLoadedData={() => setState('loaded')}
              onError={() => setState('error')}
            />
          ) : (
            <img
              className={`media-content${shown}`}
              src={url}
              alt={name}
              onLoad={() => setState('loaded')}
              onError={() => setState('error')}
            />
          )
        ) : null}
      </div>
    </div>,
    document.body,
  );
}
