import { Navigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../hooks/useSession';
import { type LoginVariant, PATHS } from './paths';

/** The app's "Loading…" while the session is not known yet, or a screen's chunk is still on its way. */
export function Waiting() {
  const { t } = useTranslation();
  return (
    <div className="app-waiting" role="status">
      {t('common.loading')}
    </div>
  );
}

/** Spec §2: login is required for the main screen; a user without a nickname stays on the nickname step. */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!session) return <Waiting />;
  if (session.status === 'unauthenticated') return <Navigate to={PATHS.login} replace />;
  if (session.status === 'needsNickname') return <Navigate to={PATHS.nickname} replace />;
  return <>{children}</>;
}

/**
 * Spec §2: a signed-in user with a nickname who opens the login screen goes to /inbox; one without a
 * nickname is kept on the nickname step of the variant they came through.
 */
export function LoginGate({ variant, step, children }: { variant: LoginVariant; step: 'phone' | 'nickname'; children: ReactNode }) {
  const session = useSession();
  if (!session) return <Waiting />;
  if (session.status === 'ready') return <Navigate to={PATHS.inbox} replace />;
  const nicknamePath = variant === 'satir' ? PATHS.satirNickname : PATHS.nickname;
  const phonePath = variant === 'satir' ? PATHS.satir : PATHS.login;
  if (session.status === 'needsNickname' && step === 'phone') return <Navigate to={nicknamePath} replace />;
  if (session.status === 'unauthenticated' && step === 'nickname') return <Navigate to={phonePath} replace />;
  return <>{children}</>;
}
