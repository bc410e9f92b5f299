/** Placeholder (actions helper): the media viewer of the message in ChatUi.media. */
export function MediaViewer() {
  return null;
}
