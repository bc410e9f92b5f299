import { useId } from 'react';
import { useTranslation } from 'react-i18next';

const QUESTIONS = ['what', 'why', 'politicians', 'real', 'act', 'messenger'] as const;

/** Questions and answers that open and close with the keyboard (native details/summary). */
export function SatirFaq() {
  const { t } = useTranslation();
  const id = useId();
  return (
    <section className="satir-box satir-faq" aria-labelledby={id}>
      <h2 id={id}>{t('satir.faq.title')}</h2>
      {QUESTIONS.map((key) => (
        <details key={key} className="satir-faq__item">
          <summary>{t(`satir.faq.${key}.q`)}</summary>
          <p>{t(`satir.faq.${key}.a`)}</p>
        </details>
      ))}
    </section>
  );
}
