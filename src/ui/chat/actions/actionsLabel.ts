import type { TFunction } from 'i18next';
import type { Message } from '../../../protocol/entities';

/** How much of a message its actions button says: enough to tell two messages apart, short enough to listen to. */
const GIST_LENGTH = 40;

/** The start of a text on one line, cut between words where it can be and marked as cut. */
export function gist(text: string, length = GIST_LENGTH): string {
  const line = text.replace(/\s+/gu, ' ').trim();
  const chars = Array.from(line);
  if (chars.length <= length) return line;
  const cut = chars.slice(0, length).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > length / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The accessible name of a message's actions button (issue 23): who wrote it, the start of its text (or
 * what it carries), and when, so a screen reader's list of buttons tells the messages apart:
 * "Message actions: Erik, “Hej Sara”, Today 14:02".
 */
export function actionsLabel(message: Message, sender: string, time: string, t: TFunction): string {
  const text = gist(message.message);
  const what = text !== '' ? t('chatActions.menu.quoted', { text }) : message.attachment ? attachmentName(message, t) : '';
  return what === ''
    ? t('chatActions.menu.openForBare', { sender, time })
    : t('chatActions.menu.openFor', { sender, what, time });
}

function attachmentName(message: Message, t: TFunction): string {
  switch (message.attachment?.type) {
    case 'image':
      return t('chat.attachment.image');
    case 'video':
      return t('chat.attachment.video');
    case 'sticker':
      return t('chat.attachment.sticker');
    case 'audio':
      return t('chat.attachment.audio');
    default:
      return t('chat.attachment.file');
  }
}
