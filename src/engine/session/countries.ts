import { BehaviorSubject, type Observable } from 'rxjs';
import type { Country } from '../../protocol/entities';
import type { CountriesView } from '../contract/types';
import { engineError, isEngineError } from '../errors';
import type { RestClient } from '../rest';
import type { EngineStorage } from '../storage/storage';

const NO_COUNTRIES: CountriesView = { countries: [], status: 'idle', error: null };

/** Spec §8: the server answered, but with no list the login screen can use. */
export const COUNTRIES_UNUSABLE = 'Failed to load countries';

/** The countries of an answer that can be shown (a code and a dial code each); null when there is no list. */
function usable(answer: unknown): Country[] | null {
  if (!Array.isArray(answer)) return null;
  const countries = answer.filter(
    (c): c is Country =>
      typeof c === 'object' && c !== null && typeof (c as Country).code === 'string' && typeof (c as Country).cc === 'string',
  );
  return countries.length > 0 ? countries : null;
}

export interface CountryListOptions {
  storage: EngineStorage;
  rest: () => RestClient;
  log: (message: string, detail?: unknown) => void;
}

/** The countries of the login screen (spec §3): fetched once, cached locally, refreshed in the background. */
export class CountryList {
  private readonly countries$ = new BehaviorSubject<CountriesView>(NO_COUNTRIES);

  constructor(private readonly options: CountryListOptions) {}

  /** EngineApi `countries`. */
  countries(): Observable<CountriesView> {
    return this.countries$;
  }

  /** EngineApi `loadCountries`. */
  async loadCountries(): Promise<Country[]> {
    const known = this.countries$.value;
    if (known.status === 'loaded') return [...known.countries];
    const cached = await this.options.storage.get<Country[]>('countries', 'all');
    if (cached) {
      this.countries$.next({ countries: cached, status: 'loaded', error: null });
      void this.options
        .rest()
        .getCountries()
        .then(({ countries }) => {
          const list = usable(countries);
          return list ? this.cache(list) : undefined;
        })
        .catch((error: unknown) => this.options.log('countries refresh failed', error));
      return cached;
    }
    this.countries$.next({ ...known, status: 'loading', error: null });
    try {
      const answer = await this.options.rest().getCountries();
      const countries = usable(answer.countries);
      if (!countries) throw engineError('getCountries', 200, null, COUNTRIES_UNUSABLE);
      await this.cache(countries);
      return countries;
    } catch (error) {
      this.countries$.next({ countries: [], status: 'error', error: isEngineError(error) ? error : null });
      throw error;
    }
  }

  /**
   * The country of a phone number in international form (+cc…, or 00cc…), from the list loaded or cached
   * here; no network call. The longest matching dial code wins. Null when none matches or none is known.
   */
  async countryOf(phone: string): Promise<Country | null> {
    const known = this.countries$.value;
    const countries =
      known.status === 'loaded' ? known.countries : ((await this.options.storage.get<Country[]>('countries', 'all')) ?? []);
    const digits = phone.replace(/[\s().-]/g, '').replace(/^00/, '+');
    if (!digits.startsWith('+')) return null;
    let best: Country | null = null;
    for (const country of countries) {
      if (country.cc !== '' && digits.startsWith(`+${country.cc}`) && country.cc.length > (best?.cc.length ?? 0)) best = country;
    }
    return best;
  }

  /** Logout cleared the stored list (spec §4). */
  forget(): void {
    this.countries$.next(NO_COUNTRIES);
  }

  private async cache(countries: Country[]): Promise<void> {
    this.countries$.next({ countries, status: 'loaded', error: null });
    await this.options.storage.writeBatch([{ store: 'countries', type: 'put', key: 'all', value: countries }]);
  }
}
