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

/** One person: a one-to-one chat. */
export function PersonIcon({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </svg>
  );
}

/** Two people: a group. */
export function GroupIcon({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2 20a7 7 0 0 1 14 0M15.5 4.6a3.5 3.5 0 0 1 0 6.8M18 13.6a7 7 0 0 1 4 6.4" />
    </svg>
  );
}

/** A megaphone: a broadcast group. */
export function BroadcastIcon({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
      <path d="M3 10v4h3l7 5V5L6 10zM17 9a4 4 0 0 1 0 6M19.5 6a8 8 0 0 1 0 12" />
    </svg>
  );
}

/** A bin: remove. */
export function RemoveIcon({ size = 20 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" {...stroke}>
      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12.5A1.5 1.5 0 0 0 8.5 21h7a1.5 1.5 0 0 0 1.5-1.5L18 7M9 7V4h6v3" />
    </svg>
  );
}
