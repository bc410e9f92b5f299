import { useEffect, useRef } from 'react';

type Save = () => Promise<unknown> | undefined;

const saves = new Set<{ current: Save }>();

/** How long a reload asked for by the engine waits for the saves (it goes ahead after). */
const SAVE_LIMIT_MS = 1_000;

/**
 * Registers, while the component is mounted, what must be saved before the engine reloads this tab (issue 14:
 * another build took the engine): typing that is still waiting out its save delay. `save` returns the save's
 * promise, or nothing when there is nothing to save.
 */
export function useSaveBeforeReload(save: Save): void {
  const ref = useRef(save);
  ref.current = save;
  useEffect(() => {
    const entry = { current: () => ref.current() };
    saves.add(entry);
    return () => {
      saves.delete(entry);
    };
  }, []);
}

/** Runs every registered save and waits for them (at most SAVE_LIMIT_MS), then reloads the page. */
export async function saveThenReload(reload: () => void = () => location.reload()): Promise<void> {
  const pending = [...saves].map((entry) => Promise.resolve(entry.current()).catch(() => undefined));
  await Promise.race([Promise.all(pending), new Promise((resolve) => setTimeout(resolve, SAVE_LIMIT_MS))]);
  reload();
}
