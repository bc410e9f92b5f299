import { LinkedText } from '../../common/LinkedText';

/** Message text as React nodes: safe links open in a new tab, everything else is plain text. */
export function MessageText({ text }: { text: string }) {
  return <LinkedText text={text} className="msg-text" />;
}
