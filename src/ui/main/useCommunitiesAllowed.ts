import { useEffect } from 'react';
import type { CountriesView } from '../../engine/api';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';
import { useSession } from '../hooks/useSession';

const NO_COUNTRIES: CountriesView = { countries: [], status: 'idle', error: null };

/** Spec §9 country gating: communities are shown only where the user's country enables them (62 yes, 46 no). */
export function useCommunitiesAllowed(): boolean {
  const engine = useEngine();
  const session = useSession();
  const view = useQuery((e) => e.countries(), [], NO_COUNTRIES);
  useEffect(() => {
    engine.loadCountries().catch((error: unknown) => console.warn('countries did not load', error));
  }, [engine]);
  if (session?.status !== 'ready') return false;
  const country = view.countries.find((c) => c.cc === session.countryCode);
  return country?.communities_enabled ?? false;
}
