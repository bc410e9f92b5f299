import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { numberFormat } from '../../common/numberFormat';

/** How often the made-up counters tick, and how often screen readers hear a summary of them. */
const TICK_MS = 1_500;
const ANNOUNCE_MS = 30_000;

interface Counts {
  scanned: number;
  alarms: number;
  photos: number;
}

/** Made-up figures that grow through the day, so a reload does not start them from zero. */
function countsAt(now: Date): Counts {
  const seconds = now.getHours() * 3600 + now.getMinutes() * 60 + now.getSeconds();
  return { scanned: seconds * 41_237, alarms: Math.floor(seconds * 11.3), photos: Math.floor(seconds * 2.7) };
}

/**
 * Fake live statistics of the protest page (spec §1), clearly marked as satire. They tick up every second
 * or two; screen readers are told a summary now and then, politely, not every tick.
 */
export function SatirStats() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [counts, setCounts] = useState(() => countsAt(new Date()));
  const [announced, setAnnounced] = useState<Counts | null>(null);
  const latest = useRef(counts);
  latest.current = counts;

  useEffect(() => {
    const timer = setInterval(() => {
      setCounts((c) => ({
        scanned: c.scanned + 30_000 + Math.floor(Math.random() * 60_000),
        alarms: c.alarms + Math.floor(Math.random() * 25),
        photos: c.photos + (Math.random() < 0.6 ? 1 + Math.floor(Math.random() * 6) : 0),
      }));
    }, TICK_MS);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    const timer = setInterval(() => setAnnounced(latest.current), ANNOUNCE_MS);
    return () => clearInterval(timer);
  }, []);

  const format = numberFormat(i18n.language);
  const items = [
    { key: 'scanned', label: t('satir.stats.scanned'), value: counts.scanned },
    { key: 'alarms', label: t('satir.stats.alarms'), value: counts.alarms },
    { key: 'photos', label: t('satir.stats.photos'), value: counts.photos },
  ];
  return (
    <section className="satir-box satir-stats" aria-labelledby={`${id}-title`} aria-describedby={`${id}-satire`}>
      <h2 id={`${id}-title`}>{t('satir.stats.title')}</h2>
      <p id={`${id}-satire`} className="satir-stats__satire">
        {t('satir.stats.satire')}
      </p>
      <dl className="satir-stats__list">
        {items.map((item) => (
          <div key={item.key} className="satir-stats__item" data-stat={item.key}>
            <dt>{item.label}</dt>
            <dd>{format.format(item.value)}</dd>
          </div>
        ))}
      </dl>
      <p className="visually-hidden" aria-live="polite">
        {announced
          ? t('satir.stats.announce', {
              scanned: format.format(announced.scanned),
              alarms: format.format(announced.alarms),
              photos: format.format(announced.photos),
            })
          : ''}
      </p>
    </section>
  );
}
