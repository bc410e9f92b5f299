/** A rectangle in viewport pixels (a DOMRect's edges). */
export interface Edges {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export interface PickerPlace {
  top: number;
  left: number;
}

/** Space kept between the picker and its button, and between the picker and the edges it must stay within. */
export const PICKER_GAP_PX = 4;

/**
 * Where a comment's reaction picker goes (issue 23): above its button when it fits there, else below it,
 * else wherever within `bounds` it covers the least of the button's neighbourhood; across, it starts at the
 * button and shifts left as far as it must to stay within `bounds`. `bounds` is the thread below its header
 * and inside the window, so no emoji hides behind the header or falls off screen at any width.
 */
export function placePicker(button: Edges, size: { width: number; height: number }, bounds: Edges): PickerPlace {
  const gap = PICKER_GAP_PX;
  const lowest = bounds.bottom - gap - size.height;
  const highest = bounds.top + gap;
  const above = button.top - gap - size.height;
  const below = button.bottom + gap;
  let top: number;
  if (above >= highest) top = above;
  else if (below <= lowest) top = below;
  // Neither side has room (a very short window): as close to the button as the bounds allow, top edge first.
  else top = Math.max(highest, Math.min(above, lowest));
  const left = Math.max(bounds.left + gap, Math.min(button.left, bounds.right - gap - size.width));
  return { top, left };
}

/** The edges a picker must stay within: `inner`'s, cut to the window's. */
export function withinWindow(inner: Edges, width: number, height: number): Edges {
  return {
    top: Math.max(0, inner.top),
    left: Math.max(0, inner.left),
    bottom: Math.min(height, inner.bottom),
    right: Math.min(width, inner.right),
  };
}
