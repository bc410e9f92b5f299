import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Conversation } from '../../protocol/entities';
import { conversationImage } from '../chat/header/ChatHeader';
import { Avatar } from '../common/Avatar';
import { useEngine } from '../hooks/EngineContext';
import { errorText } from '../common/errorText';
import { avatarProblem } from './rules';

const SIZE = 96;

/**
 * The group picture (spec §2): admins click it to choose a new one. The file is checked first (spec §5:
 * an image of at most 3 MB), uploaded (POST /v1/images), then set as the group's image_id; the new
 * picture arrives with the conversation_edit event like everybody else's.
 */
export function AvatarEditor({ conversation, canEdit }: { conversation: Conversation; canEdit: boolean }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = conversation.name || t('chatSettings.unnamed');
  const avatar = <Avatar id={conversation.id} name={name} imageUrl={conversationImage(conversation)} size={SIZE} />;
  if (!canEdit) return <div className="cs-avatar">{avatar}</div>;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = avatarProblem(file);
    if (problem) {
      setError(t(problem === 'notImage' ? 'chatSettings.avatar.notImage' : 'chatSettings.avatar.tooBig'));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const { image } = await engine.call('uploadImage', file);
      await engine.call('updateConversation', conversation.id, { imageId: image.id });
    } catch (failure) {
      setError(errorText(failure, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="cs-avatar">
      {/* The button lies over the picture, so clicking the picture changes it; it holds only the camera
          mark, so its name is the whole of what it says. */}
      <div className="cs-avatar__frame">
        {avatar}
        <button
          type="button"
          className="cs-avatar__button"
          onClick={() => input.current?.click()}
          disabled={busy}
          aria-label={t('chatSettings.avatar.change')}
          aria-describedby={error ? `cs-avatar-error-${conversation.id}` : undefined}
        >
          <span className="cs-avatar__badge" aria-hidden="true">
            <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M4 8h3l2-3h6l2 3h3v11H4z" strokeLinejoin="round" />
              <circle cx="12" cy="13" r="3.5" />
            </svg>
          </span>
        </button>
      </div>
      <input
        ref={input}
        type="file"
        accept="image/*"
        hidden
        tabIndex={-1}
        aria-label={t('chatSettings.avatar.file')}
        onChange={(event) => void choose(event)}
      />
      {busy ? (
        <p className="cs-muted" role="status">
          {t('chatSettings.avatar.uploading')}
        </p>
      ) : null}
      {error ? (
        <p id={`cs-avatar-error-${conversation.id}`} className="cs-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
