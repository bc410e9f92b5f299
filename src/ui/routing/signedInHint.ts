import type { SessionView } from '../../engine/api';
import { PATHS } from './paths';

/** localStorage's mirror of "the last session this tab saw was ready" (the engine's store is the truth). */
const KEY = 'signedIn';

/**
 * Whether a start on this path should fetch the main screen and its texts at once, alongside the engine
 * worker, rather than after the session answered (issue 11: with 100 ms round trips, every link of that
 * chain is one). Only a guess, from the mirror: a wrong one costs a fetch, never what is shown, which the
 * session gate decides. /login and the other screens without sign-in never fetch the main screen.
 */
export function mainScreenLikely(pathname: string, storage: Pick<Storage, 'getItem'>): boolean {
  const other: string[] = [PATHS.login, PATHS.nickname, PATHS.satir, PATHS.satirNickname, PATHS.debug];
  return storage.getItem(KEY) === '1' && !other.includes(pathname);
}

/** Keeps the mirror `mainScreenLikely` reads. */
export function mirrorSession(session: SessionView, storage: Pick<Storage, 'setItem' | 'removeItem'>): void {
  if (session.status === 'ready') storage.setItem(KEY, '1');
  else storage.removeItem(KEY);
}
