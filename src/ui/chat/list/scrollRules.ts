/** Spec §4, §9: the scroll thresholds of the message list. */
export const LOAD_OLDER_THRESHOLD_PX = 200;
export const NEAR_BOTTOM_PX = 500;
export const SCROLL_DEBOUNCE_MS = 100;
/** Closer than this to the bottom counts as "at the bottom": growing rows keep such a list at the end. */
export const PINNED_PX = 8;
/** Spec §9: a message at least half visible is seen. */
export const VISIBLE_RATIO = 0.5;
