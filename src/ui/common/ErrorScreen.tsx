import { useTranslation } from 'react-i18next';
import { PATHS } from '../routing/paths';

/**
 * Our own error screen (design.md §4), for a render error that reached a route, a pane or the whole app:
 * what happened in the user's language, Reload, and Back to chats. Both are real page loads, so whatever
 * state broke the screen is built afresh; drafts and the outbox live in the engine and are kept.
 */
export function ErrorScreen({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  // In a pane the screen around it already has its <main>.
  const Box = compact ? 'div' : 'main';
  return (
    <Box className={compact ? 'app-crashed app-crashed--pane' : 'app-crashed'} role="alert">
      <h1>{t('common.crashed.title')}</h1>
      <p>{t('common.crashed.text')}</p>
      <div className="app-crashed__actions">
        <button type="button" className="mx-button mx-button--primary" onClick={() => window.location.reload()}>
          {t('common.crashed.reload')}
        </button>
        <a className="mx-button" href={PATHS.inbox}>
          {t('common.crashed.backToChats')}
        </a>
      </div>
    </Box>
  );
}
