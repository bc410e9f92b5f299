import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '../../../protocol/entities';
import { Modal } from '../../common/Modal';
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

/**
 * What the viewer shows while the original loads (docs/ui.md "Thumbnails first"): the picture's thumbnail,
 * which the bubble has loaded already, in the box the original takes, so nothing moves when it arrives.
 */
export function previewUrl(message: Message): string | null {
  const a = message.attachment;
  if (a?.type !== 'image' || !a.thumbnail) return null;
  return a.thumbnail === mediaUrl(message) ? null : a.thumbnail;
}

type LoadState = 'loading' | 'loaded' | 'error';

function MediaDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const { t } = useTranslation();
  const closeRef = useRef<HTMLButtonElement>(null);
  const url = mediaUrl(message);
  const video = message.attachment?.type === 'video';
  const [state, setState] = useState<LoadState>(url ? 'loading' : 'error');
  const preview = state === 'loading' ? previewUrl(message) : null;

  const name = message.attachment?.name || (video ? t('chatActions.media.video') : t('chatActions.media.image'));
  const shown = state === 'loaded' ? '' : ' media-hidden';
  return (
    <Modal
      label={t('chatActions.media.viewer')}
      aria-busy={state === 'loading'}
      data-state={state}
      initialFocus={closeRef}
      onClose={onClose}
      className="media-dialog"
      dialogClassName="media-modal"
    >
      <button ref={closeRef} type="button" className="media-close" aria-label={t('chatActions.media.close')} onClick={onClose}>
        <span aria-hidden="true">✕</span>
      </button>
      {state === 'loading' ? (
        <p role="status" className={preview ? 'media-status media-status--over' : 'media-status'}>
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
          <>
            {preview ? <img className="media-content media-preview" src={preview} alt="" /> : null}
            <img
              className={`media-content${shown}`}
              src={url}
              alt={name}
              onLoad={() => setState('loaded')}
              onError={() => setState('error')}
            />
          </>
        )
      ) : null}
    </Modal>
  );
}
