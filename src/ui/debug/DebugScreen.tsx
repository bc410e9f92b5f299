import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BUILD_ENV, debugAccess } from './buildEnv';
import { ConstantsTable, EnvTable } from './ConfigTables';
import { CrashTest } from './CrashTest';
import { HostsForm } from './HostsForm';
import './debug.css';

function Page({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  useEffect(() => {
    const before = document.title;
    document.title = `${t('debug.title')} – ${t('common.appName')}`;
    return () => {
      document.title = before;
    };
  }, [t]);
  return (
    <main className="debug-page">
      <div className="debug-card">
        <div className="debug-top">
          <h1>{t('debug.title')}</h1>
          <Link to="/" className="debug-back">
            {t('debug.backToApp')}
          </Link>
        </div>
        {children}
      </div>
    </main>
  );
}

function PasswordForm({ password, onUnlock }: { password: string; onUnlock: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [wrong, setWrong] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const ids = { input: useId(), error: useId() };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value === password) {
      onUnlock();
      return;
    }
    setWrong(true);
    setValue('');
    input.current?.focus();
  };

  return (
    <form className="debug-password" onSubmit={submit} noValidate>
      <p>{t('debug.passwordIntro')}</p>
      <label htmlFor={ids.input}>{t('debug.password')}</label>
      <div className="debug-row">
        <input
          id={ids.input}
          ref={input}
          className="debug-input"
          type="password"
          autoComplete="off"
          autoFocus
          value={value}
          aria-invalid={wrong || undefined}
          aria-describedby={wrong ? ids.error : undefined}
          onChange={(event) => setValue(event.target.value)}
        />
        <button type="submit" className="debug-button debug-primary">
          {t('debug.unlock')}
        </button>
      </div>
      <p className="debug-error" id={ids.error} role="alert">
        {wrong ? t('debug.incorrectPassword') : ''}
      </p>
    </form>
  );
}

function Tools() {
  const { t } = useTranslation();
  return (
    <>
      <section className="debug-section" aria-labelledby="debug-hosts">
        <h2 id="debug-hosts">{t('debug.hosts.title')}</h2>
        <HostsForm />
      </section>
      <section className="debug-section" aria-labelledby="debug-config">
        <h2 id="debug-config">{t('debug.config')}</h2>
        <div className="debug-tables">
          <ConstantsTable />
          <EnvTable />
        </div>
      </section>
      <section className="debug-section" aria-labelledby="debug-crash">
        <h2 id="debug-crash">{t('debug.crash.title')}</h2>
        <CrashTest />
      </section>
    </>
  );
}

/**
 * The debug screen of spec §2: open in develop and QA builds, behind the build's password elsewhere, closed
 * when there is none. It opens without signing in, since it is where the API hosts are chosen.
 */
export function DebugScreen() {
  const { t } = useTranslation();
  const access = debugAccess(BUILD_ENV);
  const [unlocked, setUnlocked] = useState(false);

  if (access.kind === 'closed') {
    return (
      <Page>
        <p role="status">{t('debug.closed')}</p>
        <p className="debug-muted">{t('debug.closedHint')}</p>
      </Page>
    );
  }
  if (access.kind === 'password' && !unlocked) {
    return (
      <Page>
        <PasswordForm password={access.password} onUnlock={() => setUnlocked(true)} />
      </Page>
    );
  }
  return (
    <Page>
      <Tools />
    </Page>
  );
}
