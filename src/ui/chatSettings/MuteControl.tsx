import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isMuted, MUTE_CHOICES, type MuteChoice, muteEndsAt } from '../../engine/api';
import type { ConversationMute } from '../../protocol/entities';
import { errorText } from '../common/errorText';
import { useEngine } from '../hooks/EngineContext';
import { useNow } from '../hooks/useNow';
import './chatSettings.css';

/** The choice a mute stands for; a type set from the console ('1h', '1d') matches none of the four. */
function choiceOf(mute: ConversationMute | null | undefined, nowMs: number): MuteChoice | null {
  if (!isMuted(mute, nowMs) || !mute) return 'unmute';
  return (MUTE_CHOICES as readonly string[]).includes(mute.type) ? (mute.type as MuteChoice) : null;
}

/**
 * Mute notifications of one chat (spec §2 chat settings, issue 9): off, 8 hours, 1 week or always, as a
 * radio group. The checked option is the engine's (so every tab and device follows); while the call is on
 * its way the chosen one shows checked, and a refusal puts the old one back with the error inline. A timed
 * mute says until when, in the user's language and this device's time zone.
 */
export function MuteControl({ conversationId, mute }: { conversationId: number; mute: ConversationMute | null | undefined }) {
  const { t, i18n } = useTranslation();
  const engine = useEngine();
  const now = useNow();
  const id = useId();
  const [pending, setPending] = useState<MuteChoice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = choiceOf(mute, now.getTime());
  const checked = pending ?? current;

  const choose = (choice: MuteChoice) => {
    if (pending !== null || choice === current) return;
    setPending(choice);
    setError(null);
    engine.muteConversation(conversationId, choice).then(
      () => setPending(null),
      (failure: unknown) => {
        setPending(null);
        setError(errorText(failure, t));
      },
    );
  };

  const end = muteEndsAt(mute);
  let status: string | null = null;
  if (pending === null && isMuted(mute, now.getTime())) {
    status =
      end === null
        ? t('chatSettings.mute.always')
        : t('chatSettings.mute.until', {
            time: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(end),
          });
  }

  return (
    <fieldset className="cs-section cs-mute" aria-describedby={`${id}-status`} aria-busy={pending !== null || undefined}>
      <legend className="cs-section__title cs-mute__legend">{t('chatSettings.mute.legend')}</legend>
      <div className="cs-mute__options">
        {MUTE_CHOICES.map((choice) => (
          <label key={choice} className="cs-mute__option">
            <input
              type="radio"
              name={`${id}-mute`}
              value={choice}
              checked={checked === choice}
              disabled={pending !== null && pending !== choice}
              onChange={() => choose(choice)}
            />
            {t(`chatSettings.mute.${choice}`)}
          </label>
        ))}
      </div>
      <p id={`${id}-status`} className="cs-muted cs-mute__status" data-testid="mute-status">
        {pending !== null ? t('chatSettings.mute.saving') : status}
      </p>
      {error ? (
        <p className="cs-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
