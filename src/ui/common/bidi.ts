/**
 * The explicit bidi formatting characters (embeddings, overrides, isolates and their ends). In a name or a
 * text that the app puts inside a sentence of its own ("Mallory renamed the group to …"), an override such as
 * U+202E would reverse the rest of our sentence, and the time beside it ("54:20 yadoT"). They are dropped
 * there; a message's own text keeps them, inside its own element (`dir="auto"` isolates it).
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** Someone else's text made safe to place inside one of the app's sentences. */
export const inSentence = (text: string): string => text.replace(BIDI_CONTROLS, '');
