import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../routing/paths';
import { PanelHeader } from '../common/PanelHeader';
import './settings.css';

const FAQ = ['signIn', 'pin', 'notifications', 'edit', 'communities'] as const;
export const SUPPORT_EMAIL = 'support@messenger.example';

/** Spec §2 help: FAQ, contact, terms and privacy. */
export function HelpView() {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section className="settings-panel" aria-labelledby={titleId}>
      <PanelHeader title={t('settings.help')} back={PATHS.settings} titleId={titleId} />
      <div className="help">
        <h2>{t('settings.faq')}</h2>
        {FAQ.map((key) => (
          <details key={key} className="help__faq">
            <summary>{t(`settings.faqItems.${key}.q`)}</summary>
            <p>{t(`settings.faqItems.${key}.a`)}</p>
          </details>
        ))}
        <h2>{t('settings.contact')}</h2>
        <p>
          {t('settings.contactText')}{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`} rel="noopener noreferrer">
            {SUPPORT_EMAIL}
          </a>
        </p>
        <h2>{t('settings.terms')}</h2>
        <p>{t('settings.termsText')}</p>
        <h2>{t('settings.privacy')}</h2>
        <p>{t('settings.privacyText')}</p>
      </div>
    </section>
  );
}
