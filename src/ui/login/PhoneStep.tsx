import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CountriesView } from '../../engine/api';
import type { Country } from '../../protocol/entities';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';
import { errorText as commonErrorText } from '../common/errorText';
import { errorText } from './errorText';
import { Flag } from './Flag';
import type { LoginState } from './loginState';
import { checkPhone, countryForLocale, countryForNumber, type PhoneErrorKey, placeholderPhone } from './phone';

const NO_COUNTRIES: CountriesView = { countries: [], status: 'idle', error: null };

type FieldError = { field: 'country' | 'phone' | 'form'; text: string };

/** Spec §4/§5 phone step: a country, a number, and the PIN request once both are valid. */
export function PhoneStep({
  state,
  update,
  Heading,
}: {
  state: LoginState;
  update: (patch: Partial<LoginState>) => void;
  Heading: 'h1' | 'h2';
}) {
  const { t } = useTranslation();
  const engine = useEngine();
  const view = useQuery((e) => e.countries(), [], NO_COUNTRIES);
  const [error, setError] = useState<FieldError | null>(null);
  const [busy, setBusy] = useState(false);
  const countryRef = useRef<HTMLSelectElement>(null);
  const phoneRef = useRef<HTMLInputElement>(null);
  const guessed = useRef(false);
  const ids = { country: useId(), phone: useId(), error: useId(), intro: useId() };

  // The screen loads the countries when it opens; this is the retry after a failure.
  const load = () => void engine.loadCountries().catch(() => undefined);

  // Back from the PIN step (the number is known): the number field takes the focus the back button had.
  useEffect(() => {
    if (state.phoneNumber !== '') phoneRef.current?.focus();
  }, []); // Only when the step opens.

  // A first visit preselects the browser's country; a stored choice (or a deliberate "none") is kept.
  const { countries } = view;
  useEffect(() => {
    if (guessed.current || countries.length === 0) return;
    guessed.current = true;
    if (state.selectedCountry !== null || state.phoneNumber !== '') return;
    const guess = countryForLocale(navigator.languages, countries);
    if (guess) update({ selectedCountry: guess });
  }, [countries, state.selectedCountry, state.phoneNumber, update]);

  // A number with its prefix names its country, also one given back after a sign-out or typed before the
  // list came: the selector follows it when none is chosen.
  useEffect(() => {
    if (state.selectedCountry !== null) return;
    const typed = countryForNumber(state.phoneNumber, countries);
    if (typed) update({ selectedCountry: typed.code });
  }, [countries, state.phoneNumber, state.selectedCountry, update]);

  const selected: Country | undefined = countries.find((c) => c.code === state.selectedCountry);
  const loading = countries.length === 0 && view.status !== 'error';

  const show = (key: PhoneErrorKey, example?: string): FieldError => ({
    field: key === 'pleaseEnterValidPhone' ? 'phone' : 'country',
    text: t(`login.${key}`, { phone: example ?? '' }),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const check = checkPhone(state.phoneNumber, state.selectedCountry, countries);
    if (!check.ok) {
      const shown = show(check.error, check.example);
      setError(shown);
      (shown.field === 'phone' ? phoneRef : countryRef).current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await engine.requestPin(check.phone);
      update({ step: 'pin', phoneNumber: check.phone, pinCode: '', selectedCountry: check.country.code });
    } catch (failure) {
      setError({ field: 'form', text: errorText(failure, t, t('login.failedToSendPin'), t('login.failedToSendPinRetry')) });
      setBusy(false);
    }
  }

  const described = (field: FieldError['field']) => (error?.field === field ? ids.error : undefined);

  return (
    <form className="login-form" onSubmit={submit} noValidate>
      <Heading className="login-heading">{t('login.phone.heading')}</Heading>
      <p className="login-intro" id={ids.intro}>
        {t('login.phone.intro')}
      </p>

      <label className="login-label" htmlFor={ids.country}>
        {t('login.phone.country')}
      </label>
      <div className="login-country">
        <Flag code={selected?.code} />
        <select
          id={ids.country}
          ref={countryRef}
          className="login-input"
          value={state.selectedCountry ?? ''}
          aria-invalid={error?.field === 'country' || undefined}
          aria-describedby={described('country')}
          onChange={(event) => {
            setError(null);
            update({ selectedCountry: event.target.value || null });
          }}
        >
          <option value="">{loading ? t('login.phone.loadingCountries') : t('login.phone.selectCountry')}</option>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {t(`login.countries.${country.code}`, { defaultValue: country.name })} (+{country.cc})
            </option>
          ))}
          {state.selectedCountry && !selected && countries.length > 0 ? (
            <option value={state.selectedCountry}>{state.selectedCountry}</option>
          ) : null}
        </select>
      </div>

      <label className="login-label" htmlFor={ids.phone}>
        {t('login.phone.number')}
      </label>
      <input
        id={ids.phone}
        ref={phoneRef}
        className="login-input"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        value={state.phoneNumber}
        placeholder={placeholderPhone(selected)}
        aria-invalid={error?.field === 'phone' || undefined}
        aria-describedby={described('phone')}
        onChange={(event) => {
          if (error?.field !== 'form') setError(null);
          // A number typed with its prefix ("+46…") names its country: the selector follows it.
          const typed = countryForNumber(event.target.value, countries);
          update(
            typed && typed.code !== state.selectedCountry
              ? { phoneNumber: event.target.value, selectedCountry: typed.code }
              : { phoneNumber: event.target.value },
          );
        }}
      />

      {view.status === 'error' && countries.length === 0 ? (
        <p className="login-error" role="alert">
          {errorText(
            view.error,
            t,
            view.error ? commonErrorText(view.error, t) : t('errors.loadCountries'),
            t('login.countriesDownloadFailed'),
          )}{' '}
          <button type="button" className="login-link" onClick={load}>
            {t('common.retry')}
          </button>
        </p>
      ) : null}

      <p className="login-error" id={ids.error} role="alert">
        {error?.text ?? ''}
      </p>

      <button type="submit" className="login-primary" disabled={busy}>
        {busy ? t('login.phone.sending') : t('login.phone.submit')}
      </button>
    </form>
  );
}
