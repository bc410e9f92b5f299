import { useTranslation } from 'react-i18next';
import { errorText } from '../common/errorText';

/** Loading failed while something known (cached, or from a list) is still shown: said above it, with a retry. */
export function LoadNotice({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <p className="explore__notice" role="alert">
      {errorText(error, t)}{' '}
      <button type="button" className="mx-button mx-button--link" onClick={onRetry}>
        {t('explore.retry')}
      </button>
    </p>
  );
}
