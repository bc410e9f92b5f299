/** Icons drawn inline, so they show the same whatever fonts the system has (no symbol or emoji font needed). */

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export function InfoIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v6M12 7.5v.01" />
    </svg>
  );
}

export function CommentIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
      <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.6A8 8 0 1 1 21 12z" />
    </svg>
  );
}

export function SendIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
      <path d="M4 12l16-8-6 16-2.5-6.5z" />
    </svg>
  );
}

export function AddReactionIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
      <circle cx="11" cy="12" r="8" />
      <path d="M8 14.5a4 4 0 0 0 6 0M8.5 10v.01M13.5 10v.01M19 3v4M17 5h4" />
    </svg>
  );
}

/** A bell struck through: a muted chat (issue 9). */
export function MutedIcon({ size = 14 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
      <path d="M9 5.2A6 6 0 0 1 18 10v3.5l1.5 2.5H8M6.3 8.3A6 6 0 0 0 6 10v3.5L4.5 16H15M10 19a2 2 0 0 0 4 0M3 3l18 18" />
    </svg>
  );
}
