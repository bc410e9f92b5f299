import { useMemo } from 'react';
import { splitLinks } from './links';

/**
 * Text as React nodes with the app's one link rule (design.md §5): http, https and mailto (and bare www.)
 * open in a new tab with noopener noreferrer; everything else is plain text. Messages, posts, comments and
 * community and channel descriptions all go through it.
 */
export function LinkedText({ text, className }: { text: string; className: string }) {
  const parts = useMemo(() => splitLinks(text), [text]);
  return (
    <p className={className} dir="auto">
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
