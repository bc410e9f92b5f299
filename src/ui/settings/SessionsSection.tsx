import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { DeviceSession } from '../../engine/api';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { errorText } from '../common/errorText';
import { clockTime, dayKind, shortDate } from '../common/time';
import { useEngine } from '../hooks/EngineContext';
import { useNow } from '../hooks/useNow';

/**
 * The account page's sessions (docs/ui.md "Sessions"): where the user is signed in, each as its browser and
 * system ("Chrome on Linux") and when it was last active, this browser's marked "This device". Any other
 * can be ended, or all of them at once, after a confirmation; that browser is signed out at once. The
 * names come from the server's short list, and are rendered as text like everything else.
 */
export function SessionsSection() {
  const { t } = useTranslation();
  const engine = useEngine();
  const titleId = useId();
  const [sessions, setSessions] = useState<readonly DeviceSession[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [ending, setEnding] = useState<DeviceSession | 'others' | null>(null);

  useEffect(() => {
    let live = true;
    setLoadError(null);
    engine
      .sessions()
      .then((list) => live && setSessions(list))
      .catch((e: unknown) => live && setLoadError(errorText(e, t)));
    return () => {
      live = false;
    };
  }, [engine, attempt, t]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);

  const others = sessions?.filter((s) => !s.current) ?? [];
  return (
    <section className="sessions" aria-labelledby={titleId} data-testid="sessions">
      <h2 id={titleId} className="sessions__title">
        {t('settings.sessions.title')}
      </h2>
      <p className="sessions__hint">{t('settings.sessions.hint')}</p>
      {loadError ? (
        <p className="mx-field__error" role="alert">
          {loadError}{' '}
          <button type="button" className="mx-button" onClick={reload}>
            {t('common.retry')}
          </button>
        </p>
      ) : sessions === null ? (
        <p className="sessions__loading">{t('settings.sessions.loading')}</p>
      ) : (
        <ul className="sessions__list">
          {sessions.map((session) => (
            <SessionRow key={session.id} session={session} onEnd={() => setEnding(session)} />
          ))}
        </ul>
      )}
      {others.length > 0 ? (
        <button type="button" className="mx-button mx-button--danger sessions__end-others" onClick={() => setEnding('others')}>
          {t('settings.sessions.endOthers')}
        </button>
      ) : null}
      {ending !== null ? (
        <EndDialog
          target={ending}
          onDone={() => {
            setEnding(null);
            reload();
          }}
          onCancel={() => setEnding(null)}
        />
      ) : null}
    </section>
  );
}

/** "Chrome on Linux", "A browser on iOS", "Firefox", or "Unknown device". */
export function deviceText(session: Pick<DeviceSession, 'browser' | 'os'>, t: TFunction): string {
  const { browser, os } = session;
  if (browser && os) return t('settings.sessions.device', { browser, os });
  if (browser) return browser;
  if (os) return t('settings.sessions.someBrowserOn', { os });
  return t('settings.sessions.unknownDevice');
}

/** When a session was last active, in the app's date words ("today at 14:02", "yesterday at …", "3 Nov at …"). */
function lastActiveText(at: number, now: Date, language: string, t: TFunction): string {
  const date = new Date(at);
  const time = clockTime(date, language);
  switch (dayKind(date, now)) {
    case 'today':
      return t('settings.sessions.activeToday', { time });
    case 'yesterday':
      return t('settings.sessions.activeYesterday', { time });
    default:
      return t('settings.sessions.activeOn', { date: shortDate(date, now, language), time });
  }
}

function SessionRow({ session, onEnd }: { session: DeviceSession; onEnd: () => void }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const device = deviceText(session, t);
  return (
    <li className={`sessions__row${session.current ? ' sessions__row--current' : ''}`} data-testid="session-row">
      <span className="sessions__device">{device}</span>
      <span className="sessions__when">
        {session.current ? (
          <strong className="sessions__this">{t('settings.sessions.thisDevice')}</strong>
        ) : (
          lastActiveText(session.lastActiveAt, now, i18n.language, t)
        )}
      </span>
      {session.current ? null : (
        <button type="button" className="mx-button sessions__end" aria-label={t('settings.sessions.endLabel', { device })} onClick={onEnd}>
          {t('settings.sessions.end')}
        </button>
      )}
    </li>
  );
}

/** The confirmation of ending one session or all others; a failure shows in it, translated (spec §8). */
function EndDialog({ target, onDone, onCancel }: { target: DeviceSession | 'others'; onDone: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    setBusy(true);
    setError(null);
    const ended = target === 'others' ? engine.endOtherSessions() : engine.endSession(target.id);
    ended.then(onDone, (e: unknown) => {
      setBusy(false);
      setError(errorText(e, t));
    });
  };
  const one = target !== 'others';
  return (
    <ConfirmDialog
      title={t(one ? 'settings.sessions.endTitle' : 'settings.sessions.endOthersTitle')}
      text={one ? t('settings.sessions.endText', { device: deviceText(target, t) }) : t('settings.sessions.endOthersText')}
      confirmLabel={t(one ? 'settings.sessions.end' : 'settings.sessions.endOthersConfirm')}
      busy={busy}
      error={error}
      onConfirm={confirm}
      onCancel={onCancel}
    />
  );
}
