/**
 * The flags of spec §9 (Sweden and Indonesia), drawn inline: emoji flags depend on the system's fonts and
 * nothing may be loaded from the web. Other countries get a neutral badge with their dial code.
 */
export function Flag({ code }: { code: string | null | undefined }) {
  if (code === 'SE') {
    return (
      <svg className="flag" viewBox="0 0 16 10" aria-hidden="true" focusable="false">
        <rect width="16" height="10" fill="#006aa7" />
        <rect x="5" width="2" height="10" fill="#fecc00" />
        <rect y="4" width="16" height="2" fill="#fecc00" />
      </svg>
    );
  }
  if (code === 'ID') {
    return (
      <svg className="flag" viewBox="0 0 15 10" aria-hidden="true" focusable="false">
        <rect width="15" height="10" fill="#fff" />
        <rect width="15" height="5" fill="#ce1126" />
      </svg>
    );
  }
  return (
    <svg className="flag flag-none" viewBox="0 0 16 10" aria-hidden="true" focusable="false">
      <rect width="16" height="10" fill="currentColor" opacity="0.15" />
    </svg>
  );
}
