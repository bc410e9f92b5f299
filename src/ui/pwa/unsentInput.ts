import type { FormDrafts, OutboxEntry } from '../../engine/api';

/** What the engine holds that the user wrote and has not sent (all tabs share it). */
export interface UnsentInput {
  outbox: readonly OutboxEntry[];
  drafts: Readonly<Record<number, string>>;
  formDrafts: FormDrafts;
}

/**
 * Whether an update may reload every tab by itself (docs/ui.md "Offline and installation"): only when no
 * message waits to be sent and nothing is being written, in any chat or form. Nothing would be lost either
 * way (the outbox and drafts are kept across reloads), but a page must not reload under someone typing.
 */
export function hasUnsentInput({ outbox, drafts, formDrafts }: UnsentInput): boolean {
  return (
    outbox.length > 0 ||
    Object.values(drafts).some((text) => text.trim() !== '') ||
    Object.keys(formDrafts).length > 0
  );
}
