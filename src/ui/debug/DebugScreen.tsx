/** Placeholder: replaced by the debug screen (spec §2). */
export function DebugScreen() {
  return <main />;
}
