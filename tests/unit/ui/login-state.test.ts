import { describe, expect, it } from 'vitest';
import { EMPTY_LOGIN_STATE, parseLoginState } from '../../../src/ui/login/loginState';
import { codeFromPin, emptyPin, fillPin, pinFromCode } from '../../../src/ui/login/pin';

describe('the stored login state', () => {
  it('reads back what was stored', () => {
    const state = { step: 'pin', phoneNumber: '+46701234561', pinCode: '12', nickname: '', selectedCountry: 'SE' };
    expect(parseLoginState(JSON.stringify(state))).toEqual(state);
  });

  it('starts empty when nothing, or nothing readable, is stored', () => {
    for (const text of [null, '', 'not json', '42', 'null', '[]']) {
      expect(parseLoginState(text)).toEqual(EMPTY_LOGIN_STATE);
    }
  });

  it('repairs what it cannot use', () => {
    expect(parseLoginState(JSON.stringify({ step: 'somewhere', pinCode: '1a2b345', selectedCountry: '' }))).toEqual({
      ...EMPTY_LOGIN_STATE,
      pinCode: '12',
    });
    // The PIN step needs the number the PIN went to.
    expect(parseLoginState(JSON.stringify({ step: 'pin', phoneNumber: '' })).step).toBe('phone');
    expect(parseLoginState(JSON.stringify({ step: 'nickname', nickname: 42 }))).toEqual({
      ...EMPTY_LOGIN_STATE,
      step: 'nickname',
    });
  });
});

describe('the PIN boxes', () => {
  it('keep an empty box in the stored code as a space', () => {
    expect(codeFromPin(['1', '', '3', ''])).toBe('1 3');
    expect(pinFromCode('1 3')).toEqual(['1', '', '3', '']);
    expect(codeFromPin(emptyPin())).toBe('');
    expect(pinFromCode('')).toEqual(['', '', '', '']);
    expect(parseLoginState(JSON.stringify({ pinCode: '1 3' })).pinCode).toBe('1 3');
  });

  it('fill from a box on and focus the box after the last digit', () => {
    expect(fillPin(emptyPin(), 0, '7')).toEqual({ pin: ['7', '', '', ''], focus: 1 });
    expect(fillPin(['1', '2', '', ''], 2, '34')).toEqual({ pin: ['1', '2', '3', '4'], focus: 3 });
    expect(fillPin(emptyPin(), 2, '5678')).toEqual({ pin: ['', '', '5', '6'], focus: 3 });
    expect(fillPin(['1', '2', '3', '4'], 1, '9')).toEqual({ pin: ['1', '9', '3', '4'], focus: 2 });
  });
});
