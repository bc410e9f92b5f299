import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HISTORY_KEPT_CHOICES, type HistoryKept } from '../../engine/api';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';

const LABELS: Record<HistoryKept, { label: string; hint: string }> = {
  everything: { label: 'settings.historyEverything', hint: 'settings.historyEverythingHint' },
  'latest-1000': { label: 'settings.historyLatest', hint: 'settings.historyLatestHint' },
};

/** How much history this device keeps for search and offline reading (issue 13): a radio group. */
export function HistoryKeptChoice() {
  const { t } = useTranslation();
  const engine = useEngine();
  const stored = useQuery<HistoryKept | null>((e) => e.historyKept(), [], null);
  // The choice shows at once; the engine's answer (every tab's) follows when it has stored it.
  const [chosen, setChosen] = useState<HistoryKept | null>(null);
  const kept = chosen ?? stored;
  const hintId = useId();
  const name = useId();
  if (kept === null) return null;
  return (
    <fieldset className="setting-choice" aria-describedby={hintId}>
      <legend className="setting-switch__label">{t('settings.historyKept')}</legend>
      <span id={hintId} className="setting-switch__hint">
        {t('settings.historyKeptHint')}
      </span>
      {HISTORY_KEPT_CHOICES.map((choice) => (
        <label key={choice} className="setting-choice__option">
          <input
            type="radio"
            name={name}
            value={choice}
            checked={kept === choice}
            onChange={() => {
              setChosen(choice);
              engine
                .setHistoryKept(choice)
                .catch((error: unknown) => console.warn('history choice was not saved', error))
                .finally(() => setChosen(null));
            }}
          />
          <span className="setting-switch__text">
            <span>{t(LABELS[choice].label)}</span>
            <span className="setting-switch__hint">{t(LABELS[choice].hint)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
