import type { TFunction } from 'i18next';
import type { LastMessagePreview } from '../../engine/api';
import type { AttachmentType } from '../../protocol/entities';
import { eventSentence } from '../chat/message/eventText';
import { inSentence } from '../common/bidi';
import { clockTime, dayKind, fromEpochSeconds, shortDate } from '../common/time';

const ATTACHMENT_KEYS: Record<Exclude<AttachmentType, 'event'>, string> = {
  image: 'inbox.attachment.image',
  video: 'inbox.attachment.video',
  file: 'inbox.attachment.file',
  audio: 'inbox.attachment.audio',
  sticker: 'inbox.attachment.sticker',
  link: 'inbox.attachment.link',
};

/**
 * The last-message line of a row, in the user's language: an event says the chat's own sentence ("You
 * removed Sara", "Erik added you"), attachments are worded (a link keeps its text), own messages say
 * "You:", and a group's other senders are named ("Erik: …", docs/ui.md). A message deleted for everybody says
 * so: "You deleted this message", or "This message was deleted" (after the sender's name in a group). Keys
 * are listed above so the locale check sees them.
 */
export function previewText(preview: LastMessagePreview | null, t: TFunction): string {
  if (!preview) return t('inbox.noMessages');
  // `deleted` is missing from a preview an older build kept: that one was never deleted.
  if (preview.deleted === true) {
    if (preview.fromSelf) return t('inbox.deletedOwn');
    const deleted = t('inbox.deleted');
    return preview.senderName ? t('inbox.from', { name: inSentence(preview.senderName), text: deleted }) : deleted;
  }
  if (preview.eventType) {
    const { names } = preview;
    return eventSentence(
      { actorId: preview.userId, eventType: preview.eventType, event: preview.event, text: preview.text },
      preview.selfId,
      (userId) => names[userId] ?? null,
      t,
    );
  }
  if (preview.type === 'system') return preview.text ? inSentence(preview.text) : t('inbox.event.generic');
  // The line is one sentence of ours ("You: …", "Photo: …"): no bidi control of the text may turn it around.
  const text = inSentence(preview.text.trim());
  let body: string;
  if (preview.attachmentType && preview.attachmentType !== 'event' && !(preview.attachmentType === 'link' && text)) {
    const kind = t(ATTACHMENT_KEYS[preview.attachmentType]);
    body = text ? `${kind}: ${text}` : kind;
  } else {
    body = text;
  }
  if (preview.fromSelf) return t('inbox.you', { text: body });
  // A name is one of ours in the sentence too ("Erik: …"); an older cached row has no `senderName`.
  return preview.senderName ? t('inbox.from', { name: inSentence(preview.senderName), text: body }) : body;
}

/** A chat's unsent text in its row (issue 23, as WhatsApp): one line, in place of the last message. */
export function draftLine(draft: string | undefined): string {
  return draft ? inSentence(draft.trim().replace(/\s+/g, ' ')) : '';
}

/** Spec §4 time display for the list: today's clock time, "Yesterday", else a short date. */
export function rowTime(createdAt: string | number, now: Date, language: string, t: TFunction): string {
  const seconds = Number(createdAt);
  if (!Number.isFinite(seconds) || seconds <= 0) return '';
  const date = fromEpochSeconds(seconds);
  const kind = dayKind(date, now);
  if (kind === 'today') return clockTime(date, language);
  if (kind === 'yesterday') return t('inbox.yesterday');
  return shortDate(date, now, language);
}
