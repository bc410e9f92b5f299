import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { nicknameError, type SessionView } from '../../engine/api';
import { BUILD_NUMBER, CLIENT_VERSION, NICKNAME_MAX } from '../../protocol/constants';
import { AvatarPicker } from '../common/AvatarPicker';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { errorText } from '../common/errorText';
import { InlineTextEditor } from '../common/InlineTextEditor';
import { PanelHeader } from '../common/PanelHeader';
import { type BuildEnv, BUILD_ENV, openEnvironment } from '../debug/buildEnv';
import { useEngine } from '../hooks/EngineContext';
import { useSession } from '../hooks/useSession';
import { PATHS } from '../routing/paths';
import { SessionsSection } from './SessionsSection';
import './settings.css';

type Ready = Extract<SessionView, { status: 'ready' }>;

/**
 * Spec §2 account (/profile): the picture (click to change: an image of at most 3 MB; or remove it), the
 * nickname (inline editor, the nickname step's rules and texts), the phone number, the sessions (where the
 * user is signed in; any other can be ended: docs/ui.md "Sessions"), logout with confirmation, and in develop and QA builds the version and environment. Changes go through the engine's
 * `updateProfile`: every tab shows them at once, contacts live. `env` is the build's (tests give another).
 */
export function AccountView({ env = BUILD_ENV }: { env?: BuildEnv }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const session = useSession();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const titleId = useId();
  const refresh = useProfileRefresh();
  if (session?.status !== 'ready') return null;
  const logout = () => {
    setConfirming(false);
    // The session gate sends the tab (and every other tab) to /login once the engine signs out.
    engine.logout().catch((e: unknown) => setError(errorText(e, t)));
  };
  const removePicture = () => {
    setRemoving(true);
    setError(null);
    engine
      .updateProfile({ image: null })
      .catch((e: unknown) => setError(errorText(e, t)))
      .finally(() => setRemoving(false));
  };
  const environment = openEnvironment(env);
  return (
    <section className="settings-panel" aria-labelledby={titleId}>
      <PanelHeader title={t('settings.account')} back={PATHS.settings} titleId={titleId} />
      <div className="account">
        {refresh.error ? (
          <p className="mx-field__error account__refresh" role="alert">
            {refresh.error}{' '}
            <button type="button" className="mx-button" onClick={refresh.retry}>
              {t('common.retry')}
            </button>
          </p>
        ) : null}
        {/* The profile card: who the user is to others (picture, nickname, phone number), edited in place. */}
        <div className="account__card">
          <AvatarPicker
            id={session.userId}
            name={session.nickname}
            imageUrl={session.avatarUrl}
            size={96}
            changeLabel={t('settings.avatarChange')}
            fileLabel={t('settings.avatarFile')}
            save={async (file) => {
              await engine.updateProfile({ image: file });
            }}
          />
          {session.avatarUrl ? (
            <button type="button" className="mx-button account__remove" onClick={removePicture} disabled={removing}>
              {t('settings.avatarRemove')}
            </button>
          ) : null}
          <NicknameEditor session={session} />
          <dl className="account__facts account__contact">
            <dt>{t('settings.phone')}</dt>
            <dd dir="ltr">{session.phone}</dd>
          </dl>
        </div>
        {environment !== null ? (
          <dl className="account__facts account__build">
            <dt>{t('settings.version')}</dt>
            <dd data-testid="account-version">{t('settings.versionValue', { version: CLIENT_VERSION, build: BUILD_NUMBER })}</dd>
            <dt>{t('settings.environment')}</dt>
            <dd data-testid="account-environment">{environment}</dd>
          </dl>
        ) : null}
        <SessionsSection />
        <button type="button" className="mx-button mx-button--danger" onClick={() => setConfirming(true)}>
          {t('settings.logout')}
        </button>
        {error ? (
          <p className="mx-field__error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      {confirming ? (
        <ConfirmDialog
          title={t('settings.logoutTitle')}
          text={t('settings.logoutText')}
          confirmLabel={t('settings.logout')}
          onConfirm={logout}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}

/**
 * The page shows the stored account at once and asks the server again on opening (another device may have
 * changed it); when that fails it says so (spec §8 'Failed to fetch user profile') with a retry, and the
 * stored account stays shown.
 */
function useProfileRefresh(): { error: string | null; retry: () => void } {
  const { t } = useTranslation();
  const engine = useEngine();
  const [attempt, setAttempt] = useState(0);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setError(null);
    engine.refreshProfile().catch((e: unknown) => live && setError(errorText(e, t)));
    return () => {
      live = false;
    };
  }, [engine, attempt, t]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { error, retry };
}

/** The nickname with its inline editor: trimmed, 1 to 50 characters, with the nickname step's texts. */
function NicknameEditor({ session }: { session: Ready }) {
  const { t } = useTranslation();
  const engine = useEngine();
  return (
    <InlineTextEditor
      value={session.nickname}
      display={
        <p className="account__nickname">
          <span className="visually-hidden">{t('settings.nickname')}: </span>
          {session.nickname}
        </p>
      }
      canEdit
      editLabel={t('settings.nicknameEdit')}
      fieldLabel={t('settings.nickname')}
      saveLabel={t('settings.nicknameSave')}
      check={(raw) => {
        const nickname = raw.trim();
        if (nickname === session.nickname) return { kind: 'unchanged' };
        const problem = nicknameError(nickname);
        return problem ? { kind: 'invalid', message: t(`login.${problem}`, { max: NICKNAME_MAX }) } : { kind: 'ok', value: nickname };
      }}
      save={async (nickname) => {
        await engine.updateProfile({ nickname });
      }}
    />
  );
}
