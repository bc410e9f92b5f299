import { useId } from 'react';

/** An on/off setting: a labelled role="switch" button, with an optional hint read as its description. */
export function Switch({
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="setting-switch">
      <span className="setting-switch__text">
        <span id={`${id}-label`} className="setting-switch__label">
          {label}
        </span>
        {hint ? (
          <span id={`${id}-hint`} className="setting-switch__hint">
            {hint}
          </span>
        ) : null}
      </span>
      <button
        type="button"
        role="switch"
        className="switch"
        aria-checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={hint ? `${id}-hint` : undefined}
        disabled={disabled}
        onClick={() => onChange(!checked)}
      >
        <span className="switch__thumb" aria-hidden="true" />
      </button>
    </div>
  );
}
