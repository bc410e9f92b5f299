import { useId } from 'react';
import { useTranslation } from 'react-i18next';

const QUESTIONS = ['what', 'why', 'politicians', 'real', 'act', 'messenger'] as const;

/** Questions and answers that open and close with the keyboard (native details/summary). */
export function SatirFaq() {
  const { t } = useTranslation();
  const id = useId();
  return (
    <section className="satir-box satir-faq" aria-labelledby={id}>
      <h2 id={id}>{t('login.satir.faq.title')}</h2>
      {QUESTIONS.map((key) => (
        <details key={key} className="satir-faq__item">
          <summary>{t(`login.satir.faq.${key}.q`)}</summary>
          <p>{t(`login.satir.faq.${key}.a`)}</p>
        </details>
      ))}
    </section>
  );
}
