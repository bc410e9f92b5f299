import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from './errorText';
import './inlineEditor.css';

/** What a typed value means: nothing to save, an error to show, or the value to save (trimmed, say). */
export type InlineCheck = { kind: 'unchanged' } | { kind: 'invalid'; message: string } | { kind: 'ok'; value: string };

/**
 * A value shown as `display` with a pencil that turns it into a one-field form in place (a group's name,
 * the user's nickname): `check` decides first (an unchanged value just closes the editor), then `save`;
 * a refusal shows inline and keeps what was typed. Escape cancels without closing what holds the editor.
 * Closing puts focus back on the pencil.
 */
export function InlineTextEditor(props: {
  value: string;
  display: ReactNode;
  canEdit: boolean;
  editLabel: string;
  fieldLabel: string;
  saveLabel: string;
  check: (raw: string) => InlineCheck;
  save: (value: string) => Promise<void>;
}) {
  const { value: current, display, canEdit, editLabel, fieldLabel, saveLabel, check, save } = props;
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const open = () => {
    setValue(current);
    setError(null);
    setEditing(true);
  };
  const close = () => {
    setEditing(false);
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = check(value);
    if (checked.kind === 'unchanged') return close();
    if (checked.kind === 'invalid') return setError(checked.message);
    setBusy(true);
    setError(null);
    try {
      await save(checked.value);
      close();
    } catch (failure) {
      setError(errorText(failure, t));
    } finally {
      setBusy(false);
    }
  };

  if (!editing) {
    return (
      <div className="inline-editor">
        {display}
        {canEdit ? (
          <button ref={editButton} type="button" className="mx-icon-button" onClick={open} aria-label={editLabel}>
            <span aria-hidden="true">✎</span>
          </button>
        ) : null}
      </div>
    );
  }
  return (
    <form className="inline-editor__form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor={`${id}-value`} className="inline-editor__label">
        {fieldLabel}
      </label>
      <input
        id={`${id}-value`}
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
        <p id={`${id}-error`} className="inline-editor__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="inline-editor__actions">
        <button type="button" className="mx-button" onClick={close}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="mx-button mx-button--primary" disabled={busy}>
          {saveLabel}
        </button>
      </div>
    </form>
  );
}
