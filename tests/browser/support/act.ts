import { act as reactAct } from 'react';

type ActGlobal = { IS_REACT_ACT_ENVIRONMENT?: boolean };

let open = 0;

/**
 * React's act(), with React told it is in a test only while one runs. These tests drive real Chromium:
 * clicks and key presses arrive as browser events outside any act(), which React would otherwise warn
 * about on every state update (hundreds of lines that bury a real failure in the CI log).
 */
export async function act(callback: () => unknown): Promise<void> {
  open += 1;
  (globalThis as ActGlobal).IS_REACT_ACT_ENVIRONMENT = true;
  try {
    await reactAct(async () => {
      await callback();
    });
  } finally {
    open -= 1;
    if (open === 0) (globalThis as ActGlobal).IS_REACT_ACT_ENVIRONMENT = false;
  }
}
