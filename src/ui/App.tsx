import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_KEY, type Language } from './i18n';

/** The first screen: product name and language choice. Later issues replace it with the router. */
export function App() {
  const { t, i18n } = useTranslation();
  const choose = (language: Language) => {
    localStorage.setItem(LANGUAGE_KEY, language);
    document.documentElement.lang = language;
    void i18n.changeLanguage(language);
  };
  return (
    <main className="welcome">
      <h1>{t('app.name')}</h1>
      <p>{t('app.tagline')}</p>
      <p>{t('app.preparing')}</p>
      <label>
        {t('app.language')}{' '}
        <select value={i18n.language} onChange={(e) => choose(e.target.value as Language)}>
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {t(`language.${l}`)}
            </option>
          ))}
        </select>
      </label>
    </main>
  );
}
