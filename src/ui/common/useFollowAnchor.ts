import { type RefObject, useLayoutEffect, useRef } from 'react';

/**
 * Places a floating menu by its button now and again whenever anything scrolls or the window resizes (the
 * list scrolls under an open menu: new messages, older pages), one measure per frame. `measure` may change
 * each render; the listeners stay for as long as the anchor does.
 */
export function useFollowAnchor(anchor: RefObject<HTMLElement | null>, measure: () => void): void {
  const latest = useRef(measure);
  latest.current = measure;
  useLayoutEffect(() => {
    latest.current();
    let frame = 0;
    const follow = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => latest.current());
    };
    window.addEventListener('scroll', follow, true);
    window.addEventListener('resize', follow);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', follow, true);
      window.removeEventListener('resize', follow);
    };
  }, [anchor]);
}
