import type { SessionView } from '../../engine/api';
import { useQuery } from './useQuery';

/** The session, or null until the engine has answered (screens wait instead of flashing the login form). */
export function useSession(): SessionView | null {
  return useQuery<SessionView | null>((engine) => engine.session(), [], null);
}
