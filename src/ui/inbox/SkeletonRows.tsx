import { useTranslation } from 'react-i18next';

export const SKELETON_ROWS = 10;

/** Spec §9: 10 placeholders while the list loads. */
export function SkeletonRows() {
  const { t } = useTranslation();
  return (
    <div className="inbox-skeleton" role="status" aria-busy="true" aria-label={t('inbox.loading')}>
      {Array.from({ length: SKELETON_ROWS }, (_, i) => (
        // An avatar and two lines, drawn by the row's CSS (inbox.css).
        <div key={i} className="inbox-skeleton__row" data-testid="skeleton-row" aria-hidden="true" />
      ))}
    </div>
  );
}
