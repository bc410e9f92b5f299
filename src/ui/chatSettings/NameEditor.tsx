import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Conversation } from '../../protocol/entities';
import { useEngine } from '../hooks/EngineContext';
import { errorText } from '../common/errorText';
import { checkRename, RENAME_MAX } from './rules';

/**
 * The group name, with an inline editor for admins (spec §2, §5): trimmed, 1 to 50 characters; an
 * unchanged name just closes the editor; Escape cancels; a refusal shows inline. The new name comes back
 * through the conversation_edit event, so every tab and member sees it at once.
 */
export function NameEditor({ conversation, canEdit }: { conversation: Conversation; canEdit: boolean }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  const name = conversation.name || t('chatSettings.unnamed');

  // Closing the editor puts focus back on the pencil that opened it.
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const open = () => {
    setValue(conversation.name);
    setError(null);
    setEditing(true);
  };
  const close = () => {
    setEditing(false);
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const check = checkRename(value, conversation.name);
    if (check.kind === 'unchanged') return close();
    if (check.kind === 'empty') return setError(t('chatSettings.name.empty'));
    if (check.kind === 'tooLong') return setError(t('chatSettings.name.tooLong', { max: RENAME_MAX }));
    setBusy(true);
    setError(null);
    try {
      await engine.call('updateConversation', conversation.id, { name: check.name });
      close();
    } catch (failure) {
      setError(errorText(failure, t));
    } finally {
      setBusy(false);
    }
  };

  if (!editing) {
    return (
      <div className="cs-name">
        <h3 className="cs-name__text">{name}</h3>
        {canEdit ? (
          <button
            ref={editButton}
            type="button"
            className="mx-icon-button"
            onClick={open}
            aria-label={t('chatSettings.name.edit')}
          >
            <span aria-hidden="true">✎</span>
          </button>
        ) : null}
      </div>
    );
  }
  return (
    <form className="cs-name-form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor={`${id}-name`} className="cs-label">
        {t('chatSettings.name.label')}
      </label>
      <input
        id={`${id}-name`}
        className="mx-input"
        value={value}
        autoFocus
        maxLength={200}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          // Escape leaves the editor only; the panel stays open.
          event.preventDefault();
          event.stopPropagation();
          close();
        }}
      />
      {error ? (
        <p id={`${id}-error`} className="cs-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="cs-row">
        <button type="button" className="mx-button" onClick={close}>
          {t('chatSettings.cancel')}
        </button>
        <button type="submit" className="mx-button mx-button--primary" disabled={busy}>
          {t('chatSettings.name.save')}
        </button>
      </div>
    </form>
  );
}
