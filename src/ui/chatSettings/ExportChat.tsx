import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportProgress } from '../../engine/api';
import { isEngineError } from '../../engine/api';
import { errorText } from '../common/errorText';
import { formatCount } from '../common/numberFormat';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';

type Outcome = { kind: 'saved'; fileName: string; messages: number } | { kind: 'cancelled' } | { kind: 'failed'; text: string };

/**
 * "Export chat" (issue 24) in chat settings: readable HTML or JSON, from this device or the whole history
 * from the server. The engine's worker writes the file (engine.exportConversation), so the tab stays free;
 * while it works a progress bar counts the messages gathered and Cancel stops it. The file is saved the
 * browser's usual way for downloads.
 */
export function ExportChat({ conversationId }: { conversationId: number }) {
  const { t, i18n } = useTranslation();
  const engine = useEngine();
  const id = useId();
  const [format, setFormat] = useState<'html' | 'json'>('html');
  const [fromServer, setFromServer] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const progress = useQuery<ExportProgress | null>((e) => e.exportProgress(conversationId), [conversationId], null);
  const running = progress !== null && (progress.phase === 'collecting' || progress.phase === 'writing');
  const count = (n: number) => formatCount(n, i18n.language);

  const start = async () => {
    setOutcome(null);
    try {
      const result = await engine.exportConversation(conversationId, { format, source: fromServer ? 'server' : 'device' });
      const url = URL.createObjectURL(result.blob);
      const link = Object.assign(document.createElement('a'), { href: url, download: result.fileName });
      document.body.append(link);
      link.click();
      link.remove();
      // The download has its own copy once started; the URL is not needed after this task.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setOutcome({ kind: 'saved', fileName: result.fileName, messages: result.messages });
    } catch (error) {
      if (isEngineError(error) && error.status === 499) setOutcome({ kind: 'cancelled' });
      else setOutcome({ kind: 'failed', text: errorText(error, t) });
    }
  };

  return (
    <section className="cs-section cs-export" aria-labelledby={`${id}-title`} data-export-chat="">
      <h3 id={`${id}-title`} className="cs-section__title">
        {t('chatSettings.export.title')}
      </h3>
      <fieldset className="cs-export__choices" disabled={running}>
        <legend className="cs-muted">{t('chatSettings.export.format')}</legend>
        <label>
          <input type="radio" name={`${id}-format`} checked={format === 'html'} onChange={() => setFormat('html')} />{' '}
          {t('chatSettings.export.html')}
        </label>
        <label>
          <input type="radio" name={`${id}-format`} checked={format === 'json'} onChange={() => setFormat('json')} />{' '}
          {t('chatSettings.export.json')}
        </label>
        <label>
          <input type="checkbox" checked={fromServer} onChange={(event) => setFromServer(event.target.checked)} />{' '}
          {t('chatSettings.export.fromServer')}
        </label>
      </fieldset>
      {running ? (
        <div className="cs-export__progress">
          <progress aria-labelledby={`${id}-status`} />
          <p id={`${id}-status`} role="status">
            {t(progress.phase === 'writing' ? 'chatSettings.export.writing' : 'chatSettings.export.collecting', {
              count: progress.messages,
              formatted: count(progress.messages),
            })}
          </p>
          <button type="button" className="mx-button" onClick={() => void engine.cancelExport(conversationId)}>
            {t('common.cancel')}
          </button>
        </div>
      ) : (
        <button type="button" className="mx-button" onClick={() => void start()}>
          {t('chatSettings.export.button')}
        </button>
      )}
      {outcome?.kind === 'saved' ? (
        <p role="status" className="cs-muted">
          {t('chatSettings.export.saved', { fileName: outcome.fileName, count: outcome.messages, formatted: count(outcome.messages) })}
        </p>
      ) : outcome?.kind === 'cancelled' ? (
        <p role="status" className="cs-muted">
          {t('chatSettings.export.cancelled')}
        </p>
      ) : outcome?.kind === 'failed' ? (
        <p role="alert" className="modal__error">
          {outcome.text}
        </p>
      ) : null}
    </section>
  );
}
