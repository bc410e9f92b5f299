import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useEngine } from '../hooks/EngineContext';
import { isLanguage, LANGUAGES } from '../i18n';
import { PATHS } from '../routing/paths';
import { PanelHeader } from '../common/PanelHeader';
import './settings.css';

const ENTRIES = [
  { to: PATHS.profile, label: 'settings.account', hint: 'settings.accountHint' },
  { to: PATHS.settingsControls, label: 'settings.controls', hint: 'settings.controlsHint' },
  { to: PATHS.settingsNotifications, label: 'settings.notifications', hint: 'settings.notificationsHint' },
  { to: PATHS.settingsHelp, label: 'settings.help', hint: 'settings.helpHint' },
] as const;

/** Spec §2 settings list: account, controls, notifications, help, and the language switch. */
export function SettingsList() {
  const { t, i18n } = useTranslation();
  const engine = useEngine();
  const titleId = useId();
  const languageId = useId();
  return (
    <section className="settings-panel" aria-labelledby={titleId}>
      <PanelHeader title={t('settings.title')} titleId={titleId} />
      <ul className="mx-options">
        {ENTRIES.map((entry) => (
          <li key={entry.to}>
            <Link to={entry.to} className="mx-options__item">
              <span className="mx-options__name">{t(entry.label)}</span>
              <span className="mx-options__hint">{t(entry.hint)}</span>
            </Link>
          </li>
        ))}
      </ul>
      <div className="mx-field settings-language">
        <label htmlFor={languageId}>{t('common.language')}</label>
        <select
          id={languageId}
          className="mx-input"
          value={isLanguage(i18n.language) ? i18n.language : 'en'}
          onChange={(event) => {
            const language = event.target.value;
            if (isLanguage(language)) {
              engine.setLanguage(language).catch((error: unknown) => console.warn('language was not saved', error));
            }
          }}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {t(`common.languages.${language}`)}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}
