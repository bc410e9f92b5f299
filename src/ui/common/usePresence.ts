import { useTranslation } from 'react-i18next';
import { of } from 'rxjs';
import type { PresenceView } from '../../engine/api';
import { useNow } from '../hooks/useNow';
import { useQuery } from '../hooks/useQuery';
import { presenceText } from './presenceText';

/** A person's presence as a line of text (presenceText.ts), or null when unknown or there is no person. */
export function usePresenceText(userId: number | null): string | null {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const presence = useQuery<PresenceView | null>((e) => (userId === null ? of(null) : e.presence(userId)), [userId], null);
  return presenceText(presence, now, i18n.language, t);
}
