import { useTranslation } from 'react-i18next';
import type { SignedOutReason } from '../../engine/api';

/**
 * Why the user is on the login screen when they did not log out (docs/ui.md "Signed out"): a quiet notice
 * above the phone step, read out once by screen readers (a status, not an alert: nothing went wrong here).
 */
export function SignedOutNotice({ reason }: { reason: SignedOutReason }) {
  const { t } = useTranslation();
  return (
    <div className="login-notice" role="status">
      <strong>{t('login.signedOut.title')}</strong>
      <p>{t(`login.signedOut.${reason}`)}</p>
    </div>
  );
}
