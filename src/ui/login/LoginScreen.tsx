import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { CountriesView, SessionView } from '../../engine/api';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';
import { useSession } from '../hooks/useSession';
import { type LoginVariant, PATHS } from '../routing/paths';
import { LanguageSwitch } from './LanguageSwitch';
import { useLoginState } from './loginState';
import { NicknameStep } from './NicknameStep';
import { PhoneStep } from './PhoneStep';
import { PinStep } from './PinStep';
import { SignedOutNotice } from './SignedOutNotice';
import './login.css';

const NO_COUNTRIES: CountriesView = { countries: [], status: 'idle', error: null };

/**
 * The login screen of spec §2 and §4: phone, then PIN (both on the phone route), then the nickname (on its
 * own route, where the session gate keeps a user without one). The state survives reloads until success.
 * `before` and `after` surround the card: the protest page's parts (satir/SatirLoginScreen.tsx), which
 * load in a chunk of their own, so the standard screen never carries them.
 */
export function LoginScreen({
  variant,
  step,
  before,
  after,
}: {
  variant: LoginVariant;
  step: 'phone' | 'nickname';
  before?: ReactNode;
  after?: ReactNode;
}) {
  const { t } = useTranslation();
  const engine = useEngine();
  const navigate = useNavigate();
  const { state, update, clear } = useLoginState();
  const { countries } = useQuery((e) => e.countries(), [], NO_COUNTRIES);

  useEffect(() => {
    void engine.loadCountries().catch(() => undefined);
  }, [engine]);

  const shown = step === 'nickname' ? 'nickname' : state.step === 'pin' && state.phoneNumber ? 'pin' : 'phone';

  // Signed out by the engine (the token refused, the browser's data cleared): say so, with the number again.
  const session = useSession();
  const signedOut = session?.status === 'unauthenticated' ? (session.signedOut ?? null) : null;
  const signedOutPhone = signedOut?.phone ?? '';
  useEffect(() => {
    if (signedOutPhone !== '' && state.step === 'phone' && state.phoneNumber === '') update({ phoneNumber: signedOutPhone });
  }, [signedOutPhone]); // Once per sign-out: the number is the user's to change after that.

  useEffect(() => {
    const before = document.title;
    document.title = `${t(`login.${shown}.title`)} – ${t('common.appName')}`;
    return () => {
      document.title = before;
    };
  }, [shown, t]);

  const signedIn = useCallback(
    (session: SessionView) => {
      if (session.status === 'ready') {
        clear();
        void navigate({ to: PATHS.inbox, replace: true });
      } else if (session.status === 'needsNickname') {
        update({ step: 'nickname', pinCode: '' });
        void navigate({ to: variant === 'satir' ? PATHS.satirNickname : PATHS.nickname, replace: true });
      }
    },
    [clear, navigate, update, variant],
  );

  // The satir page has its own h1 above the card; the standard screen's step heading is the page's h1.
  const Heading = variant === 'satir' ? 'h2' : 'h1';
  const country = countries.find((c) => c.code === state.selectedCountry);

  return (
    <main className={`login-page login-${variant}`}>
      {before}
      <div className="login-card">
        <p className="login-brand">
          <span className="login-logo" aria-hidden="true" />
          {t('common.appName')}
        </p>
        {shown === 'phone' && signedOut ? <SignedOutNotice reason={signedOut.reason} /> : null}
        {shown === 'phone' ? <PhoneStep state={state} update={update} Heading={Heading} /> : null}
        {shown === 'pin' ? (
          <PinStep state={state} update={update} country={country} onSignedIn={signedIn} Heading={Heading} />
        ) : null}
        {shown === 'nickname' ? (
          <NicknameStep state={state} update={update} onSignedIn={signedIn} Heading={Heading} />
        ) : null}
      </div>
      {after}
      <LanguageSwitch />
    </main>
  );
}
