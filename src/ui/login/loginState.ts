import { useCallback, useState } from 'react';

/**
 * The login state of spec §3 (step, phoneNumber, pinCode, nickname, selectedCountry), kept until the login
 * succeeds so a reload lands on the same step. It is this tab's UI state, not the engine's (design.md §3),
 * so it lives in localStorage under one key.
 */
export type LoginStep = 'phone' | 'pin' | 'nickname';

export interface LoginState {
  step: LoginStep;
  /** What the user typed on the phone step; the +cc form once the PIN was requested. */
  phoneNumber: string;
  pinCode: string;
  nickname: string;
  /** The country's `code` (e.g. 'SE'), or null when none was chosen yet. */
  selectedCountry: string | null;
}

export const LOGIN_STATE_KEY = 'loginState';

export const EMPTY_LOGIN_STATE: LoginState = {
  step: 'phone',
  phoneNumber: '',
  pinCode: '',
  nickname: '',
  selectedCountry: null,
};

const str = (value: unknown, max: number): string => (typeof value === 'string' ? value.slice(0, max) : '');

/** The stored state, or the empty one when nothing (or something unreadable) is stored. */
export function parseLoginState(text: string | null): LoginState {
  if (!text) return EMPTY_LOGIN_STATE;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return EMPTY_LOGIN_STATE;
  }
  if (typeof value !== 'object' || value === null) return EMPTY_LOGIN_STATE;
  const v = value as Record<string, unknown>;
  const step: LoginStep = v.step === 'pin' || v.step === 'nickname' ? v.step : 'phone';
  const phoneNumber = str(v.phoneNumber, 64);
  // Digits, and a space for an empty box between them.
  const pinCode = str(v.pinCode, 4).replace(/[^\d ]/g, '');
  const selectedCountry = typeof v.selectedCountry === 'string' && v.selectedCountry !== '' ? v.selectedCountry : null;
  return {
    // A PIN step without the number the PIN was sent to cannot go on.
    step: step === 'pin' && phoneNumber === '' ? 'phone' : step,
    phoneNumber,
    pinCode,
    nickname: str(v.nickname, 200),
    selectedCountry,
  };
}

function read(): LoginState {
  try {
    return parseLoginState(localStorage.getItem(LOGIN_STATE_KEY));
  } catch {
    return EMPTY_LOGIN_STATE;
  }
}

function write(state: LoginState | null): void {
  try {
    if (state) localStorage.setItem(LOGIN_STATE_KEY, JSON.stringify(state));
    else localStorage.removeItem(LOGIN_STATE_KEY);
  } catch {
    // Storage can be full or blocked; the login still works, it just does not survive a reload.
  }
}

/** The persisted login state: `update` merges and stores a patch, `clear` forgets it (on success). */
export function useLoginState(): {
  state: LoginState;
  update: (patch: Partial<LoginState>) => void;
  clear: () => void;
} {
  const [state, setState] = useState(read);
  const update = useCallback((patch: Partial<LoginState>) => {
    setState((previous) => {
      const next = { ...previous, ...patch };
      write(next);
      return next;
    });
  }, []);
  const clear = useCallback(() => {
    write(null);
    setState(EMPTY_LOGIN_STATE);
  }, []);
  return { state, update, clear };
}
