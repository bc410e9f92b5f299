import { useId } from 'react';
import { useTranslation } from 'react-i18next';

const HEADLINES = ['cake', 'beach', 'minister', 'record', 'encryption', 'postcards'] as const;

/**
 * A band of made-up headlines that scrolls (spec §1); it stands still under prefers-reduced-motion, and
 * pauses while hovered or focused. The second copy only closes the loop and is hidden from readers.
 */
export function SatirTicker() {
  const { t } = useTranslation();
  const id = useId();
  const list = (hidden: boolean) => (
    <ul className="satir-ticker__list" aria-hidden={hidden || undefined}>
      {HEADLINES.map((key) => (
        <li key={key}>{t(`satir.ticker.${key}`)}</li>
      ))}
    </ul>
  );
  return (
    <section className="satir-ticker" aria-labelledby={id} tabIndex={0}>
      <h2 id={id} className="visually-hidden">
        {t('satir.ticker.title')}
      </h2>
      <div className="satir-ticker__track" data-testid="satir-ticker-track">
        {list(false)}
        {list(true)}
      </div>
    </section>
  );
}
