import { useEffect } from 'react';
import type { CountriesView } from '../../engine/api';
import { COMMUNITY_COUNTRIES } from '../../protocol/constants';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';
import { useSession } from '../hooks/useSession';

const NO_COUNTRIES: CountriesView = { countries: [], status: 'idle', error: null };

/**
 * Spec §9 country gating: communities are shown only where the user's country enables them (62 yes,
 * 46 no). The countries list says so; while it is not available (not loaded yet, failed, or without the
 * user's country), the known community countries decide.
 */
export function communitiesAllowed(countryCode: string, countries: CountriesView['countries']): boolean {
  const country = countries.find((c) => c.cc === countryCode);
  return country ? country.communities_enabled : COMMUNITY_COUNTRIES.includes(countryCode);
}

/**
 * The gating as a decision that waits for its facts: 'unknown' until the session and the countries are
 * in (or failed), so a redirect away from /explore never fires while the countries still load.
 */
export function useCommunitiesGate(): 'unknown' | 'allowed' | 'denied' {
  const engine = useEngine();
  const session = useSession();
  const view = useQuery((e) => e.countries(), [], NO_COUNTRIES);
  useEffect(() => {
    engine.loadCountries().catch((error: unknown) => console.warn('countries did not load', error));
  }, [engine]);
  if (session?.status !== 'ready') return 'unknown';
  const known = view.countries.some((c) => c.cc === session.countryCode);
  if (!known && view.status !== 'loaded' && view.status !== 'error') return 'unknown';
  return communitiesAllowed(session.countryCode, view.countries) ? 'allowed' : 'denied';
}

/** Whether to offer communities now (the menu, the filter tabs): the gate, with 'unknown' as not yet. */
export function useCommunitiesAllowed(): boolean {
  return useCommunitiesGate() === 'allowed';
}
