import { useMemo } from 'react';
import { splitLinks } from './links';

/** Message text as React nodes: safe links open in a new tab, everything else is plain text. */
export function MessageText({ text }: { text: string }) {
  const parts = useMemo(() => splitLinks(text), [text]);
  return (
    <p className="msg-text" dir="auto">
      {parts.map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
