import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConnectionState } from '../../engine/api';
import { useQuery } from '../hooks/useQuery';

/** The socket's state (spec §4): a quiet dot when online, a visible line while connecting or offline. */
export const ConnectionIndicator = memo(function ConnectionIndicator() {
  const { t } = useTranslation();
  const state = useQuery<ConnectionState | null>((engine) => engine.connection(), [], null);
  if (state === null) return null;
  const text = t(`nav.connection.${state}`);
  return (
    <div className={`connection connection--${state}`} role="status" data-state={state}>
      <span className="connection__dot" aria-hidden="true" />
      <span className={state === 'online' ? 'visually-hidden' : 'connection__text'}>{text}</span>
    </div>
  );
});
