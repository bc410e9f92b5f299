import { useTranslation } from 'react-i18next';
import type { Conversation, Message } from '../../../protocol/entities';
import { findMember } from '../message/members';
import { truncate } from './sendRules';

/** The text a preview shows for a message: its text, else what its attachment is. */
export function previewText(message: Message, attachmentLabel: string): string {
  return truncate(message.message.trim() !== '' ? message.message : (message.attachment?.name ?? attachmentLabel));
}

export function authorName(message: Message, conversation: Conversation, selfId: number, you: string): string {
  if (message.user_id === selfId) return you;
  const member = findMember(conversation, message.user_id);
  return member?.nickname || member?.phone_nr || '';
}

/** The reply or edit preview above the input (spec §2, §5: text cut at 100 characters), with its cancel button. */
export function ComposerPreview(props: {
  kind: 'reply' | 'edit';
  message: Message;
  conversation: Conversation;
  selfId: number;
  onCancel: () => void;
}) {
  const { kind, message, conversation, selfId, onCancel } = props;
  const { t } = useTranslation();
  const title =
    kind === 'edit'
      ? t('chatActions.composer.editing')
      : message.user_id === selfId
        ? t('chatActions.composer.replyingToSelf')
        : t('chatActions.composer.replyingTo', {
            name: authorName(message, conversation, selfId, t('chatActions.reactions.you')),
          });
  return (
    <div className={`composer-preview composer-preview-${kind}`} data-testid={`composer-${kind}-preview`}>
      <div className="composer-preview-body">
        <p className="composer-preview-title">{title}</p>
        <p className="composer-preview-text">{previewText(message, t('chatActions.composer.attachment'))}</p>
      </div>
      <button
        type="button"
        className="composer-icon-button"
        aria-label={kind === 'reply' ? t('chatActions.composer.cancelReply') : t('chatActions.composer.cancelEdit')}
        onClick={onCancel}
      >
        <span aria-hidden="true">✕</span>
      </button>
    </div>
  );
}
