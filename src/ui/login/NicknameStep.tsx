import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { nicknameError, type SessionView } from '../../engine/api';
import { NICKNAME_MAX } from '../../protocol/constants';
import { useEngine } from '../hooks/EngineContext';
import { errorText } from './errorText';
import type { LoginState } from './loginState';

/** Spec §4 nickname step: only for a profile without a nickname; registering it completes the login. */
export function NicknameStep({
  state,
  update,
  onSignedIn,
  Heading,
}: {
  state: LoginState;
  update: (patch: Partial<LoginState>) => void;
  onSignedIn: (session: SessionView) => void;
  Heading: 'h1' | 'h2';
}) {
  const { t } = useTranslation();
  const engine = useEngine();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const ids = { input: useId(), error: useId(), intro: useId() };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const invalid = nicknameError(state.nickname);
    if (invalid) {
      setError(t(`login.${invalid}`, { max: NICKNAME_MAX }));
      input.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      onSignedIn(await engine.register(state.nickname.trim()));
    } catch (failure) {
      setError(errorText(failure, t, t('errors.register'), t('login.failedToSaveNickname')));
      setBusy(false);
      input.current?.focus();
    }
  }

  return (
    <form className="login-form" onSubmit={submit} noValidate>
      <Heading className="login-heading">{t('login.nickname.heading')}</Heading>
      <p className="login-intro" id={ids.intro}>
        {t('login.nickname.intro')}
      </p>
      <label className="login-label" htmlFor={ids.input}>
        {t('login.nickname.label')}
      </label>
      <input
        id={ids.input}
        ref={input}
        className="login-input"
        type="text"
        autoComplete="nickname"
        autoFocus
        value={state.nickname}
        aria-invalid={error !== null || undefined}
        aria-describedby={error ? `${ids.intro} ${ids.error}` : ids.intro}
        onChange={(event) => {
          setError(null);
          update({ nickname: event.target.value });
        }}
      />
      <p className="login-error" id={ids.error} role="alert">
        {error ?? ''}
      </p>
      <button type="submit" className="login-primary" disabled={busy}>
        {busy ? t('login.nickname.saving') : t('login.nickname.submit')}
      </button>
    </form>
  );
}
