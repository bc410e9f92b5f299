import type { TFunction } from 'i18next';
import type { PresenceView } from '../../engine/api';
import { clockTime, dayKind, fromEpochSeconds, shortDate } from './time';

/**
 * What a header or profile says of a person's presence (issue 23): "online", or when they were last seen
 * in the app's date words ("last seen today at 14:02", "… yesterday at …", "… 3 Nov at …"); null when
 * nothing is known, and the caller says what it said before (the number).
 */
export function presenceText(presence: PresenceView | null, now: Date, language: string, t: TFunction): string | null {
  if (!presence) return null;
  if (presence.online) return t('chat.presence.online');
  if (!(presence.lastSeen > 0)) return null;
  const seen = fromEpochSeconds(presence.lastSeen);
  const time = clockTime(seen, language);
  switch (dayKind(seen, now)) {
    case 'today':
      return t('chat.presence.lastSeenToday', { time });
    case 'yesterday':
      return t('chat.presence.lastSeenYesterday', { time });
    default:
      return t('chat.presence.lastSeenOn', { date: shortDate(seen, now, language), time });
  }
}
