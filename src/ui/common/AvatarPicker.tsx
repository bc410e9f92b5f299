import { type ChangeEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { avatarProblem } from '../../engine/api';
import { Avatar } from './Avatar';
import './avatarPicker.css';
import { errorText } from './errorText';

/**
 * A picture the user may change (spec §2: a group's, or their own): clicking it opens the file picker; the
 * file is checked first (spec §5: an image of at most 3 MB, with the inline texts of spec §8), then `save`
 * uploads and sets it. While it works the picture is disabled and says so; a refusal shows inline.
 */
export function AvatarPicker(props: {
  id: number;
  name: string;
  imageUrl: string | null;
  size: number;
  /** The button's name, e.g. "Change group picture". */
  changeLabel: string;
  /** The hidden file input's name. */
  fileLabel: string;
  save: (file: File) => Promise<void>;
}) {
  const { id, name, imageUrl, size, changeLabel, fileLabel, save } = props;
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = avatarProblem(file);
    if (problem) {
      setError(t(problem === 'notImage' ? 'failures.avatar.notImage' : 'failures.avatar.tooBig'));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await save(file);
    } catch (failure) {
      setError(errorText(failure, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="avatar-picker">
      {/* The button lies over the picture, so clicking the picture changes it; it holds only the camera
          mark, so its name is the whole of what it says. */}
      <div className="avatar-picker__frame">
        <Avatar id={id} name={name} imageUrl={imageUrl} size={size} />
        <button
          type="button"
          className="avatar-picker__button"
          onClick={() => input.current?.click()}
          disabled={busy}
          aria-label={changeLabel}
          aria-describedby={error ? errorId : undefined}
        >
          <span className="avatar-picker__badge" aria-hidden="true">
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
        aria-label={fileLabel}
        onChange={(event) => void choose(event)}
      />
      {busy ? (
        <p className="avatar-picker__status" role="status">
          {t('failures.avatar.uploading')}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="avatar-picker__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
