import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HostOverrides } from '../../engine/api';
import { useEngine } from '../hooks/EngineContext';
import { checkCustomHosts, type PresetId, PRESETS } from './environments';

type Choice = PresetId | 'custom';

/** Spec §2: an environment preset, or custom API and websocket bases, saved by the engine (and a reset). */
export function HostsForm() {
  const { t } = useTranslation();
  const engine = useEngine();
  const [choice, setChoice] = useState<Choice>('production');
  const [apiBase, setApiBase] = useState('');
  const [wsBase, setWsBase] = useState('');
  const [error, setError] = useState<{ field: 'apiBase' | 'wsBase' | 'form'; text: string } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const ids = { legend: useId(), api: useId(), ws: useId(), error: useId() };

  async function store(hosts: HostOverrides, failure: 'saveFailed' | 'resetFailed', done: string) {
    setSaved(null);
    try {
      await engine.setHostOverrides(hosts);
      setError(null);
      setSaved(done);
    } catch {
      setError({ field: 'form', text: t(`debug.hosts.${failure}`) });
    }
  }

  function save(event: FormEvent) {
    event.preventDefault();
    if (choice === 'custom') {
      const check = checkCustomHosts(apiBase, wsBase);
      if (!check.ok) {
        setSaved(null);
        setError({ field: check.field, text: t(`debug.hosts.${check.error}`) });
        document.getElementById(check.field === 'apiBase' ? ids.api : ids.ws)?.focus();
        return;
      }
      void store(check.hosts, 'saveFailed', t('debug.hosts.saved', { api: check.hosts.apiBase }));
      return;
    }
    const preset = PRESETS.find((p) => p.id === choice);
    if (!preset || preset.apiBase === undefined) return;
    void store(
      { apiBase: preset.apiBase, wsBase: preset.wsBase },
      'saveFailed',
      t('debug.hosts.saved', { api: preset.apiBase ?? t('debug.hosts.thisOrigin') }),
    );
  }

  function reset() {
    setChoice('production');
    setApiBase('');
    setWsBase('');
    void store({ apiBase: null, wsBase: null }, 'resetFailed', t('debug.hosts.resetDone'));
  }

  const describedBy = (field: 'apiBase' | 'wsBase') => (error?.field === field ? ids.error : undefined);

  return (
    <form className="debug-hosts" onSubmit={save} noValidate>
      <fieldset className="debug-fieldset">
        <legend id={ids.legend}>{t('debug.hosts.environment')}</legend>
        {PRESETS.map((preset) => (
          <label key={preset.id} className="debug-radio">
            <input
              type="radio"
              name="environment"
              value={preset.id}
              checked={choice === preset.id}
              disabled={preset.apiBase === undefined}
              onChange={() => setChoice(preset.id)}
            />
            <span>
              {t(`debug.hosts.presets.${preset.id}`)}{' '}
              <span className="debug-muted">
                {preset.apiBase === undefined
                  ? t('debug.hosts.notConfigured')
                  : (preset.apiBase ?? t('debug.hosts.thisOrigin'))}
              </span>
            </span>
          </label>
        ))}
        <label className="debug-radio">
          <input
            type="radio"
            name="environment"
            value="custom"
            checked={choice === 'custom'}
            onChange={() => setChoice('custom')}
          />
          <span>{t('debug.hosts.presets.custom')}</span>
        </label>
      </fieldset>

      {choice === 'custom' ? (
        <div className="debug-custom">
          <UrlField
            id={ids.api}
            label={t('debug.hosts.apiBase')}
            placeholder="https://api.example.org"
            value={apiBase}
            onChange={setApiBase}
            errorId={describedBy('apiBase')}
          />
          <UrlField
            id={ids.ws}
            label={t('debug.hosts.wsBase')}
            placeholder="wss://api.example.org"
            value={wsBase}
            onChange={setWsBase}
            errorId={describedBy('wsBase')}
          />
          <p className="debug-muted">{t('debug.hosts.wsHint')}</p>
        </div>
      ) : null}

      <p className="debug-error" id={ids.error} role="alert">
        {error?.text ?? ''}
      </p>
      <p className="debug-status" role="status">
        {saved ?? ''}
      </p>
      <div className="debug-row">
        <button type="submit" className="debug-button debug-primary">
          {t('debug.hosts.save')}
        </button>
        <button type="button" className="debug-button" onClick={reset}>
          {t('debug.hosts.reset')}
        </button>
      </div>
    </form>
  );
}

/** A labelled URL input; `errorId` names the error it is wrong by (and marks it invalid), if any. */
function UrlField(props: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  errorId: string | undefined;
}) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        className="debug-input"
        type="url"
        inputMode="url"
        placeholder={props.placeholder}
        value={props.value}
        aria-invalid={props.errorId !== undefined || undefined}
        aria-describedby={props.errorId}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </>
  );
}
