import { describe, expect, it } from 'vitest';
import { PICKER_GAP_PX, placePicker, withinWindow } from '../../../src/ui/chat/comments/pickerPlace';

/** A comment thread below its header (top 73), 374 px wide as at 390 px, and a picker of 2 rows of 5. */
const bounds = { top: 73, left: 16, bottom: 784, right: 374 };
const size = { width: 202, height: 88 };
const button = (top: number, left = 76) => ({ top, left, bottom: top + 28, right: left + 32 });

describe('placePicker (issue 23: the comment reaction picker stays in view)', () => {
  it('opens above its button when there is room below the header', () => {
    expect(placePicker(button(400), size, bounds)).toEqual({ top: 400 - PICKER_GAP_PX - 88, left: 76 });
  });

  it('opens below its button when above it would go behind the header', () => {
    expect(placePicker(button(120), size, bounds)).toEqual({ top: 148 + PICKER_GAP_PX, left: 76 });
  });

  it('shifts left so its right edge stays inside the thread', () => {
    expect(placePicker(button(400, 300), size, bounds).left).toBe(374 - PICKER_GAP_PX - 202);
  });

  it('never goes above the header nor left of the thread when nothing fits', () => {
    const tiny = { top: 73, left: 16, bottom: 200, right: 150 };
    const place = placePicker(button(100), size, tiny);
    expect(place.top).toBe(73 + PICKER_GAP_PX);
    expect(place.left).toBe(16 + PICKER_GAP_PX);
  });

  it('cuts the bounds to the window', () => {
    expect(withinWindow({ top: -10, left: -5, bottom: 900, right: 500 }, 390, 844)).toEqual({ top: 0, left: 0, bottom: 844, right: 390 });
  });
});
