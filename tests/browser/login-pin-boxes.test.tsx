import { useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { createI18n } from '../../src/ui/i18n';
import { emptyPin } from '../../src/ui/login/pin';
import { PinBoxes } from '../../src/ui/login/PinBoxes';

/**
 * The PIN boxes on their own, in real Chromium with real key presses (the e2e login test covers the whole
 * step against the server). Key presses arrive as real browser events, outside React's act().
 */

const changes: string[][] = [];
let root: Root | null = null;
let host: HTMLElement | null = null;
afterEach(() => {
  root?.unmount();
  host?.remove();
  changes.length = 0;
});

function Harness({ readOnly }: { readOnly: boolean }) {
  const [pin, setPin] = useState<string[]>(emptyPin());
  const [inputs] = useState(() => ({ current: [] as (HTMLInputElement | null)[] }));
  return (
    <PinBoxes
      pin={pin}
      inputs={inputs}
      readOnly={readOnly}
      invalid={false}
      describedBy={undefined}
      onChange={(next) => {
        changes.push(next);
        setPin(next);
      }}
    />
  );
}

async function mount(readOnly = false): Promise<void> {
  const i18n = await createI18n('en');
  host = document.body.appendChild(document.createElement('div'));
  root = createRoot(host);
  root.render(
    <I18nextProvider i18n={i18n}>
      <Harness readOnly={readOnly} />
    </I18nextProvider>,
  );
  await expect.element(page.getByRole('textbox', { name: 'PIN digit 1 of 4' })).toBeInTheDocument();
}

const box = (n: number) => page.getByRole('textbox', { name: `PIN digit ${n} of 4` });
const values = () => [1, 2, 3, 4].map((n) => (box(n).element() as HTMLInputElement).value);
const focused = () => document.activeElement?.getAttribute('aria-label');

describe('the PIN boxes', () => {
  it('are four numeric boxes in a group named "PIN code"', async () => {
    await mount();
    await expect.element(page.getByRole('group', { name: 'PIN code' })).toBeInTheDocument();
    for (const n of [1, 2, 3, 4]) {
      await expect.element(box(n)).toHaveAttribute('inputmode', 'numeric');
    }
  });

  it('replace a digit typed over, and move with the arrow keys', async () => {
    await mount();
    await userEvent.click(box(1));
    await userEvent.keyboard('123');
    expect(values()).toEqual(['1', '2', '3', '']);
    expect(focused()).toBe('PIN digit 4 of 4');
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(focused()).toBe('PIN digit 2 of 4');
    // The focused box has its digit selected, so a new one replaces it and the focus moves on.
    await userEvent.keyboard('9');
    expect(values()).toEqual(['1', '9', '3', '']);
    expect(focused()).toBe('PIN digit 3 of 4');
    await userEvent.keyboard('{ArrowRight}');
    expect(focused()).toBe('PIN digit 4 of 4');
    await userEvent.keyboard('{ArrowRight}');
    expect(focused()).toBe('PIN digit 4 of 4');
  });

  it('spread a whole code typed into one box at once (the one-time-code autofill) over all four', async () => {
    await mount();
    await userEvent.fill(box(1), '4821');
    expect(values()).toEqual(['4', '8', '2', '1']);
    expect(changes.at(-1)).toEqual(['4', '8', '2', '1']);
    expect(focused()).toBe('PIN digit 4 of 4');
  });

  it('clear the box on Backspace, or the one before when it is already empty', async () => {
    await mount();
    await userEvent.click(box(1));
    await userEvent.keyboard('56');
    await userEvent.keyboard('{ArrowLeft}');
    expect(focused()).toBe('PIN digit 2 of 4');
    await userEvent.keyboard('{Backspace}');
    expect(values()).toEqual(['5', '', '', '']);
    expect(focused()).toBe('PIN digit 2 of 4');
    await userEvent.keyboard('{Backspace}');
    expect(values()).toEqual(['', '', '', '']);
    expect(focused()).toBe('PIN digit 1 of 4');
    await userEvent.keyboard('{Backspace}');
    expect(values()).toEqual(['', '', '', '']);
  });

  it('take nothing while read-only (a PIN is being checked)', async () => {
    await mount(true);
    await userEvent.click(box(1));
    await userEvent.keyboard('12{Backspace}');
    expect(values()).toEqual(['', '', '', '']);
    expect(changes).toEqual([]);
  });
});
