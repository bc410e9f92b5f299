import { memo } from 'react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../routing/paths';
import type { MenuSection } from './leftView';

/** A menu icon (24 px unless said) drawn by one path, hidden from assistive technology (the label names the item). */
export function MenuIcon({ d, size = 24 }: { d: string; size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path fill="currentColor" d={d} />
    </svg>
  );
}

export const CHATS_PATH =
  'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2zm0 2v11.2L7.2 16H20V6H4z';
export const COMMUNITIES_PATH =
  'M8 11a3 3 0 1 1 0-6 3 3 0 0 1 0 6zm8 0a3 3 0 1 1 0-6 3 3 0 0 1 0 6zM8 13c2.7 0 8 1.3 8 4v2H0v-2c0-2.7 5.3-4 8-4zm8 0c.5 0 1 0 1.6.1 1.6.7 2.4 1.9 2.4 3.9v2h4v-2c0-2.7-5.3-4-8-4z';
export const SETTINGS_PATH =
  'M19.4 13a7.7 7.7 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.3 7.3 0 0 0-1.7-1L15 3h-4l-.4 2.9a7.3 7.3 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.7 7.7 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1c.5.4 1.1.7 1.7 1L11 21h4l.4-2.9c.6-.3 1.2-.6 1.7-1l2.5 1 2-3.5L19.4 13zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z';

/** The router marks only exact matches; sub-views (/inbox/5, /settings/help, /profile) are marked by section. */
const EXACT = { exact: true } as const;

/** The left icon menu of spec §2; the current section carries aria-current. */
export const IconMenu = memo(function IconMenu({
  section,
  communities,
  onChats,
}: {
  section: MenuSection;
  communities: boolean;
  onChats: () => void;
}) {
  const { t } = useTranslation();
  const current = (s: MenuSection) => (section === s ? ('page' as const) : undefined);
  return (
    <nav className="icon-menu" aria-label={t('nav.menu')}>
      <Link to={PATHS.inbox} className="icon-menu__item" activeOptions={EXACT} aria-current={current('chats')} onClick={onChats}>
        <MenuIcon d={CHATS_PATH} />
        <span className="icon-menu__label">{t('nav.chats')}</span>
      </Link>
      {communities ? (
        <Link to={PATHS.explore} className="icon-menu__item" activeOptions={EXACT} aria-current={current('communities')}>
          <MenuIcon d={COMMUNITIES_PATH} />
          <span className="icon-menu__label">{t('nav.communities')}</span>
        </Link>
      ) : null}
      <Link to={PATHS.settings} className="icon-menu__item" activeOptions={EXACT} aria-current={current('settings')}>
        <MenuIcon d={SETTINGS_PATH} />
        <span className="icon-menu__label">{t('nav.settings')}</span>
      </Link>
    </nav>
  );
});
