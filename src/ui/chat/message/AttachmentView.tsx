import { useState } from 'react';
import type { Attachment, Message } from '../../../protocol/entities';
import { useChatRow, useChatTexts } from '../ChatContext';
import { formatFileSize } from './fileSize';
import { safeHref } from '../../common/links';
import { fitBox, MEDIA_MAX_SIDE, stickerSide } from './mediaSize';
import './attachments.css';

const urlOf = (a: Attachment) => a.url || a.file_info?.url || '';

/** A file's link: the server gives paths (`/files/…`) on its own origin; only safe schemes become links. */
function fileHref(url: string): string | null {
  if (!url) return null;
  try {
    return safeHref(new URL(url, document.baseURI).href);
  } catch {
    return null;
  }
}

/** One attachment by its type (spec §2 "Chat view"); events are system messages and render elsewhere. */
export function AttachmentView({ message, attachment }: { message: Message; attachment: Attachment }) {
  switch (attachment.type) {
    case 'image':
      return <ImageAttachment message={message} attachment={attachment} />;
    case 'video':
      return <VideoAttachment message={message} attachment={attachment} />;
    case 'sticker':
      return <StickerAttachment attachment={attachment} />;
    case 'audio':
      return <AudioAttachment attachment={attachment} />;
    case 'file':
      return <FileAttachment attachment={attachment} />;
    case 'link':
      return <LinkAttachment attachment={attachment} />;
    case 'event':
      return <EventCard attachment={attachment} />;
    default:
      return <Unsupported />;
  }
}

function Unsupported() {
  const { t } = useChatTexts();
  return <p className="att-unsupported">{t('chat.attachment.unsupported')}</p>;
}

type Box = { width: number; height: number } | null;

/**
 * A picture or video that did not load (spec §8 'Failed to load media'): a quiet box of the media's size
 * instead of the browser's broken-image icon, with a retry that loads it again.
 */
function MediaUnavailable({ box, onRetry }: { box: Box; onRetry: () => void }) {
  const { t } = useChatTexts();
  return (
    <div className="att-unavailable" style={box ? { width: box.width, height: box.height } : undefined}>
      <p role="alert">{t('chatActions.media.failed')}</p>
      <button type="button" className="att-unavailable__retry" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** Load failures of a bubble's media: `attempt` keys the element, so a retry makes the browser ask again. */
function useMediaFailure(): { failed: boolean; attempt: number; fail: () => void; retry: () => void } {
  const [state, setState] = useState({ failed: false, attempt: 0 });
  return {
    ...state,
    fail: () => setState((s) => ({ ...s, failed: true })),
    retry: () => setState((s) => ({ failed: false, attempt: s.attempt + 1 })),
  };
}

function ImageAttachment({ message, attachment }: { message: Message; attachment: Attachment }) {
  const { t } = useChatTexts();
  const { openMedia } = useChatRow();
  const media = useMediaFailure();
  const box = fitBox(attachment.file_info?.dimensions, MEDIA_MAX_SIDE);
  const name = attachment.name || t('chat.attachment.image');
  const src = attachment.thumbnail || urlOf(attachment);
  if (!src) return <Unsupported />;
  if (media.failed) return <MediaUnavailable box={box} onRetry={media.retry} />;
  return (
    <button
      type="button"
      className="att-media-button"
      onClick={() => openMedia(message)}
      aria-label={t('chat.attachment.openImage', { name })}
    >
      <img
        key={media.attempt}
        className="att-image"
        src={src}
        alt={name}
        loading="lazy"
        onError={media.fail}
        // Known dimensions reserve the box before the picture loads, so the list does not jump.
        {...(box ? { width: box.width, height: box.height, style: { width: box.width, height: box.height } } : {})}
      />
    </button>
  );
}

function VideoAttachment({ message, attachment }: { message: Message; attachment: Attachment }) {
  const { t } = useChatTexts();
  const { openMedia } = useChatRow();
  const box = fitBox(attachment.file_info?.dimensions, MEDIA_MAX_SIDE);
  const media = useMediaFailure();
  const name = attachment.name || t('chat.attachment.video');
  const src = urlOf(attachment);
  if (!src) return <Unsupported />;
  if (media.failed) return <MediaUnavailable box={box} onRetry={media.retry} />;
  return (
    <div className="att-video-wrap">
      <video
        key={media.attempt}
        className="att-video"
        src={src}
        controls
        preload="metadata"
        aria-label={name}
        onError={media.fail}
        {...(box ? { width: box.width, height: box.height, style: { width: box.width, height: box.height } } : {})}
      />
      <button
        type="button"
        className="att-open-viewer"
        onClick={() => openMedia(message)}
        aria-label={t('chat.attachment.openVideoNamed', { name })}
      >
        <svg className="att-open-viewer__icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
          <path
            d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        {t('chat.attachment.openVideo')}
      </button>
    </div>
  );
}

function StickerAttachment({ attachment }: { attachment: Attachment }) {
  const { t } = useChatTexts();
  const media = useMediaFailure();
  const side = stickerSide(attachment.file_info?.dimensions);
  const src = attachment.thumbnail || urlOf(attachment);
  if (!src) return <Unsupported />;
  if (media.failed) return <MediaUnavailable box={{ width: side, height: side }} onRetry={media.retry} />;
  return (
    <img
      key={media.attempt}
      onError={media.fail}
      className="att-sticker"
      src={src}
      alt={attachment.name || t('chat.attachment.sticker')}
      width={side}
      height={side}
      loading="lazy"
    />
  );
}

function AudioAttachment({ attachment }: { attachment: Attachment }) {
  const { t } = useChatTexts();
  const [failed, setFailed] = useState(false);
  const src = attachment.file_info?.mp3 || urlOf(attachment);
  if (failed || !src) return <p className="att-error">{t('chat.attachment.audioUnavailable')}</p>;
  return (
    <audio
      className="att-audio"
      src={src}
      controls
      preload="metadata"
      aria-label={attachment.name || t('chat.attachment.audio')}
      onError={() => setFailed(true)}
    />
  );
}

function FileAttachment({ attachment }: { attachment: Attachment }) {
  const { t, language } = useChatTexts();
  const size = attachment.size ?? attachment.file_info?.size;
  const name = attachment.name || t('chat.attachment.file');
  const href = fileHref(urlOf(attachment));
  const label = (
    <>
      <svg className="att-file-icon" viewBox="0 0 16 20" width="16" height="20" aria-hidden="true">
        <path d="M1 1h9l5 5v13H1z M10 1v5h5" fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>
      <span className="att-file-name">{name}</span>
      {size !== undefined ? <span className="att-file-size">{formatFileSize(size, language)}</span> : null}
    </>
  );
  return href ? (
    <a className="att-file" href={href} download={name} target="_blank" rel="noopener noreferrer">
      {label}
    </a>
  ) : (
    <span className="att-file">{label}</span>
  );
}

function LinkAttachment({ attachment }: { attachment: Attachment }) {
  const url = urlOf(attachment);
  const href = safeHref(url);
  const title = attachment.metadata?.title || attachment.name || url;
  return (
    <div className="att-link">
      <span className="att-link-title">{title}</span>
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {url}
        </a>
      ) : (
        <span>{url}</span>
      )}
    </div>
  );
}

/** An event attachment on an ordinary message (a calendar event): its name and description. */
function EventCard({ attachment }: { attachment: Attachment }) {
  const { t } = useChatTexts();
  return (
    <div className="att-event">
      <span className="att-event-label">{t('chat.attachment.event')}</span>
      {attachment.event?.name ? <strong>{attachment.event.name}</strong> : null}
      {attachment.event?.description ? <span>{attachment.event.description}</span> : null}
    </div>
  );
}
