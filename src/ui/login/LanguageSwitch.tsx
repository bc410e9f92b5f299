import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useEngine } from '../hooks/EngineContext';
import { LANGUAGES } from '../i18n';

/** English / Svenska before signing in: the engine keeps the choice and every tab follows it. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const engine = useEngine();
  const label = useId();
  return (
    <div className="login-languages" role="group" aria-labelledby={label}>
      <span id={label} className="visually-hidden">
        {t('common.language')}
      </span>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className="login-language"
          aria-pressed={i18n.language === language}
          onClick={() => void engine.setLanguage(language).catch((error: unknown) => console.warn(error))}
        >
          {t(`common.languages.${language}`)}
        </button>
      ))}
    </div>
  );
}
