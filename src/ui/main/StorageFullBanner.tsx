import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { StorageStatus } from '../../engine/api';
import { useQuery } from '../hooks/useQuery';

/**
 * Issue 12: the browser refused the engine's writes for want of space. Sending still works, but what is new
 * is not kept on this device, so the user is told, and how to fix it; the banner goes once writes fit again.
 */
export const StorageFullBanner = memo(function StorageFullBanner() {
  const { t } = useTranslation();
  const status = useQuery<StorageStatus>((engine) => engine.storageStatus(), [], 'ok');
  if (status !== 'full') return null;
  return (
    <div className="storage-full" role="alert">
      {t('failures.storageFull')}
    </div>
  );
});
