import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { saveThenReload } from '../hooks/saveBeforeReload';
import { useEngine } from '../hooks/EngineContext';
import { useAppUpdate } from './useAppUpdate';
import './updateBar.css';

/**
 * "A new version is available — Reload" (issue 13), while a tab of an older build has unsent input; without
 * any the tabs reload by themselves (useAppUpdate). Reload saves what is being typed first.
 */
export const UpdateBar = memo(function UpdateBar() {
  const { t } = useTranslation();
  const engine = useEngine();
  const available = useAppUpdate();
  if (available === null) return null;
  return (
    <div className="update-bar" role="status">
      <span>{t('nav.update.available')}</span>
      <button type="button" className="update-bar__reload" onClick={() => {
          // The reader asked: reload even after many reloads in a minute.
          engine.noteReloadInto(available);
          void saveThenReload();
        }}>
        {t('nav.update.reload')}
      </button>
    </div>
  );
});
