import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../common/Avatar';
import { useEngine } from '../hooks/EngineContext';
import { useSession } from '../hooks/useSession';
import { PATHS } from '../routing/paths';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { PanelHeader } from '../common/PanelHeader';
import './settings.css';

/** Spec §2 account (/profile): avatar, nickname, phone, logout with confirmation. */
export function AccountView() {
  const { t } = useTranslation();
  const engine = useEngine();
  const session = useSession();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  if (session?.status !== 'ready') return null;
  const logout = () => {
    setConfirming(false);
    // The session gate sends the tab (and every other tab) to /login once the engine signs out.
    engine.logout().catch((e: unknown) => {
      setError(typeof e === 'object' && e !== null && 'message' in e ? String(e.message) : t('common.unexpectedError'));
    });
  };
  return (
    <section className="settings-panel" aria-labelledby={titleId}>
      <PanelHeader title={t('settings.account')} back={PATHS.settings} titleId={titleId} />
      <div className="account">
        <Avatar id={session.userId} name={session.nickname} size={96} />
        <dl className="account__facts">
          <dt>{t('settings.nickname')}</dt>
          <dd>{session.nickname}</dd>
          <dt>{t('settings.phone')}</dt>
          <dd dir="ltr">{session.phone}</dd>
        </dl>
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
