import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** A left-panel title with an optional back link (sub-views go back to their list). */
export function PanelHeader({ title, back, titleId }: { title: string; back?: string; titleId: string }) {
  const { t } = useTranslation();
  return (
    <header className="mx-panel-header">
      {back ? (
        <Link to={back} className="mx-icon-button" aria-label={t('common.back')}>
          <span aria-hidden="true">←</span>
        </Link>
      ) : null}
      <h1 className="mx-panel-header__title" id={titleId}>
        {title}
      </h1>
    </header>
  );
}
