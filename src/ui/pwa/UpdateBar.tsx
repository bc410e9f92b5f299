import { useTranslation } from 'react-i18next';
import { saveThenReload } from '../hooks/saveBeforeReload';
import { useAppUpdate } from './useAppUpdate';
import './updateBar.css';

/**
 * "A new version is available — Reload" (issue 13), while a tab of an older build has unsent input; without
 * any the tabs reload by themselves (useAppUpdate). Reload saves what is being typed first.
 */
export function UpdateBar() {
  const { t } = useTranslation();
  const available = useAppUpdate();
  if (!available) return null;
  return (
    <div className="update-bar" role="status">
      <span>{t('nav.update.available')}</span>
      <button type="button" className="update-bar__reload" onClick={() => void saveThenReload()}>
        {t('nav.update.reload')}
      </button>
    </div>
  );
}
