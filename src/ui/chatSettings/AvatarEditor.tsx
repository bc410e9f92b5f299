import { useTranslation } from 'react-i18next';
import type { Conversation } from '../../protocol/entities';
import { conversationImage } from '../chat/header/ChatHeader';
import { Avatar } from '../common/Avatar';
import { AvatarPicker } from '../common/AvatarPicker';
import { useEngine } from '../hooks/EngineContext';

const SIZE = 96;

/**
 * The group picture (spec §2): admins click it to choose a new one, uploaded (POST /v1/images) and set
 * as the group's image_id; the new picture arrives with the conversation_edit event like everybody else's.
 */
export function AvatarEditor({ conversation, canEdit }: { conversation: Conversation; canEdit: boolean }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const name = conversation.name || t('chatSettings.unnamed');
  const imageUrl = conversationImage(conversation);
  if (!canEdit) {
    return (
      <div className="cs-avatar">
        <Avatar id={conversation.id} name={name} imageUrl={imageUrl} size={SIZE} />
      </div>
    );
  }
  return (
    <AvatarPicker
      id={conversation.id}
      name={name}
      imageUrl={imageUrl}
      size={SIZE}
      changeLabel={t('chatSettings.avatar.change')}
      fileLabel={t('chatSettings.avatar.file')}
      save={async (file) => {
        const { image } = await engine.call('uploadImage', file);
        await engine.call('updateConversation', conversation.id, { imageId: image.id });
      }}
    />
  );
}
