/** Placeholder (composer helper): the message input with reply/edit previews, attach and drag-and-drop. */
export function Composer() {
  return null;
}
