import { type ClipboardEvent, type KeyboardEvent, type RefObject, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PIN_LENGTH } from '../../protocol/constants';
import { fillPin, type PinDigits } from './pin';

/**
 * Four single-digit boxes (spec §2): a digit moves focus forward, Backspace back, pasting (or the phone's
 * one-time-code autofill) of several digits fills the boxes from the first, anything but digits is ignored.
 */
export function PinBoxes({
  pin,
  onChange,
  inputs,
  readOnly,
  describedBy,
  invalid,
}: {
  pin: PinDigits;
  /** The new slots; the parent submits when all are filled. */
  onChange: (pin: string[]) => void;
  inputs: RefObject<(HTMLInputElement | null)[]>;
  readOnly: boolean;
  describedBy: string | undefined;
  invalid: boolean;
}) {
  const { t } = useTranslation();
  const groupLabel = useId();
  const focus = (index: number) => {
    const box = inputs.current[index];
    box?.focus();
    box?.select();
  };

  const typed = (index: number, value: string) => {
    const digits = value.replace(/\D/g, '');
    if (value !== '' && digits === '') return;
    if (digits === '') {
      onChange(pin.map((d, i) => (i === index ? '' : d)));
      return;
    }
    const old = pin[index] ?? '';
    if (old && digits.length === 2 && digits.includes(old)) {
      // A key typed beside the digit already in the box (the caret was not over it) replaces it.
      const filled = fillPin(pin, index, digits.startsWith(old) ? digits.slice(1) : digits.slice(0, 1));
      onChange(filled.pin);
      focus(filled.focus);
      return;
    }
    // Several digits at once (the one-time-code autofill) spread over the boxes; all four start at the first.
    const filled = fillPin(pin, digits.length >= PIN_LENGTH ? 0 : index, digits.slice(0, PIN_LENGTH));
    onChange(filled.pin);
    focus(filled.focus);
  };

  const pasted = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    if (readOnly) return;
    const digits = event.clipboardData.getData('text').replace(/\D/g, '');
    if (digits === '') return;
    const filled = fillPin(pin, digits.length >= PIN_LENGTH ? 0 : index, digits.slice(0, PIN_LENGTH));
    onChange(filled.pin);
    focus(filled.focus);
  };

  const key = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && !readOnly) {
      event.preventDefault();
      const target = pin[index] ? index : Math.max(index - 1, 0);
      onChange(pin.map((d, i) => (i === target ? '' : d)));
      focus(target);
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      focus(index - 1);
    } else if (event.key === 'ArrowRight' && index < PIN_LENGTH - 1) {
      event.preventDefault();
      focus(index + 1);
    }
  };

  return (
    <div className="pin-boxes" role="group" aria-labelledby={groupLabel} aria-describedby={describedBy}>
      <span id={groupLabel} className="visually-hidden">
        {t('login.pin.group')}
      </span>
      {pin.map((digit, index) => (
        <input
          key={index}
          ref={(element) => {
            inputs.current[index] = element;
          }}
          className="pin-box"
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          maxLength={index === 0 ? PIN_LENGTH : 2}
          value={digit}
          readOnly={readOnly}
          aria-invalid={invalid || undefined}
          aria-label={t('login.pin.digit', { n: index + 1, total: PIN_LENGTH })}
          onFocus={(event) => event.target.select()}
          onChange={(event) => typed(index, event.target.value)}
          onPaste={(event) => pasted(index, event)}
          onKeyDown={(event) => key(index, event)}
        />
      ))}
    </div>
  );
}
