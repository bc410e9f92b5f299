import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PARTIES } from './parties';

/**
 * "Tell them what you think" (spec §1): a party of the Riksdag, and a link that opens its contact page in a
 * new tab, with neither opener nor referrer (design.md §5).
 */
export function PartyPicker() {
  const { t } = useTranslation();
  const id = useId();
  const [chosen, setChosen] = useState('');
  const party = PARTIES.find((p) => p.id === chosen);
  return (
    <section className="satir-box satir-parties" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('satir.parties.title')}</h2>
      <p>{t('satir.parties.text')}</p>
      <div className="satir-parties__row">
        <label htmlFor={`${id}-select`} className="satir-parties__label">
          {t('satir.parties.label')}
        </label>
        <select id={`${id}-select`} className="satir-parties__select" value={chosen} onChange={(event) => setChosen(event.target.value)}>
          <option value="" disabled>
            {t('satir.parties.choose')}
          </option>
          {PARTIES.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        {party ? (
          <a className="satir-parties__open" href={party.url} target="_blank" rel="noopener noreferrer">
            {t('satir.parties.open', { party: party.name })}
            <span className="visually-hidden"> {t('satir.parties.newTab')}</span>
          </a>
        ) : null}
      </div>
    </section>
  );
}
