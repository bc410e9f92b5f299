import type { AppSettings } from '../../engine/api';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';

/** The app settings (spec §3), shared by every tab through the engine; null until it answered. */
export function useSettings(): { settings: AppSettings | null; update: (patch: Partial<AppSettings>) => void } {
  const engine = useEngine();
  const settings = useQuery<AppSettings | null>((e) => e.settings(), [], null);
  const update = (patch: Partial<AppSettings>) => {
    engine.updateSettings(patch).catch((error: unknown) => console.warn('settings were not saved', error));
  };
  return { settings, update };
}
