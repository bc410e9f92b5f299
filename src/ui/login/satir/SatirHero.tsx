import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The heading of the protest variant (spec §1): the same login under a satirical Swedish protest page
 * against the EU chat-scanning proposal, with the politicians' sign-in that stays closed.
 */
export function SatirHero() {
  const { t } = useTranslation();
  const note = useId();
  return (
    <header className="satir-hero">
      <p className="satir-kicker">{t('satir.kicker')}</p>
      <h1 className="satir-heading">{t('satir.heading')}</h1>
      <p className="satir-lead">{t('satir.lead')}</p>
      <button type="button" className="satir-politician" disabled aria-describedby={note}>
        {t('satir.politicianLogin')}
      </button>
      <p className="satir-note" id={note}>
        {t('satir.politicianNote')}
      </p>
    </header>
  );
}
