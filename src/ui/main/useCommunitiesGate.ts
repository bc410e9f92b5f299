import type { CountriesView } from '../../engine/api';
import { useQuery } from '../hooks/useQuery';
import { useSession } from '../hooks/useSession';

const NO_COUNTRIES: CountriesView = { countries: [], status: 'idle', error: null };

/**
 * Spec §9 country gating as a decision that waits for its facts: 'unknown' until the session and the
 * countries are in, so a redirect away from /explore never fires for a user whose countries are still loading.
 */
export function useCommunitiesGate(): 'unknown' | 'allowed' | 'denied' {
  const session = useSession();
  const view = useQuery((e) => e.countries(), [], NO_COUNTRIES);
  if (session?.status !== 'ready') return 'unknown';
  const country = view.countries.find((c) => c.cc === session.countryCode);
  if (country) return country.communities_enabled ? 'allowed' : 'denied';
  return view.status === 'loaded' || view.status === 'error' ? 'denied' : 'unknown';
}
