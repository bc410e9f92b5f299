import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { MESSAGE_TEXT_MAX } from '../../../protocol/constants';
import { formatCount } from '../../common/numberFormat';
import { COUNTER_FROM_LEFT } from './sendRules';

/**
 * The quiet count-down beside the input (docs/ui.md "Sending"): nothing until COUNTER_FROM_LEFT characters are
 * left, then how many, and past the limit by how many it is over, in the danger colour. The number is what the
 * eye reads; the sentence is what the input's description reads out (it is no live region: a screen reader
 * hears it on focus, not at every key).
 */
export function LengthCounter({ id, left }: { id: string; left: number }) {
  const { t, i18n } = useTranslation();
  if (left > COUNTER_FROM_LEFT) return <span id={id} hidden />;
  const over = left < 0;
  const count = Math.abs(left);
  return (
    <span id={id} className={over ? 'composer-counter composer-counter--over' : 'composer-counter'} data-left={left}>
      <span aria-hidden="true">{over ? `−${formatCount(count, i18n.language)}` : formatCount(count, i18n.language)}</span>
      <span className="composer-sr-only">
        {over
          ? t('chatActions.composer.charactersOver', { count, formatted: formatCount(count, i18n.language) })
          : t('chatActions.composer.charactersLeft', { count, formatted: formatCount(count, i18n.language) })}
      </span>
    </span>
  );
}

/** Why a text over the limit is not sent, with the limit and how far over it is, in the user's numbers. */
export function tooLongText(over: number, t: TFunction, language: string): string {
  return t('chatActions.composer.tooLong', {
    count: over,
    max: formatCount(MESSAGE_TEXT_MAX, language),
    over: formatCount(over, language),
  });
}
