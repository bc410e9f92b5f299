import { LoginScreen } from '../LoginScreen';
import { PartyPicker } from './PartyPicker';
import { SatirFaq } from './SatirFaq';
import { SatirHero } from './SatirHero';
import { SatirStats } from './SatirStats';
import { SatirTicker } from './SatirTicker';
import './satir.css';

/**
 * The protest page (spec §1): the login screen with the ticker, the hero and the figures above its card and
 * the party picker and the FAQ below. Its own chunk (routing/chunks/satir.ts): /login never loads it.
 */
export function SatirLoginScreen({ step }: { step: 'phone' | 'nickname' }) {
  return (
    <LoginScreen
      variant="satir"
      step={step}
      before={
        <>
          <SatirTicker />
          <SatirHero />
          <SatirStats />
        </>
      }
      after={
        <>
          <PartyPicker />
          <SatirFaq />
        </>
      }
    />
  );
}
