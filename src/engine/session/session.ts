import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs';
import type { User } from '../../protocol/entities';
import type { DeviceSession, ProfileChanges, SessionView, SignedOutReason } from '../contract/types';
import type { EngineClock } from '../clock';
import { engineError } from '../errors';
import type { RestClient } from '../rest';
import { FALLBACKS, INVALID_PARAMETERS } from '../rest/fallbacks';
import { avatarProblem, nicknameError } from '../rules';
import type { EngineStorage } from '../storage/storage';
import type { SessionList } from './sessionList';

/** A File or Blob (a console caller may pass anything). */
const isBlob = (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;

/** The hosts the PIN confirmation names for the account (spec §7; empty strings mean the default ones). */
export interface AuthEndpoints {
  http: string;
  ws: string;
}

/** What the `session` store keeps across reloads. */
export interface StoredAuth {
  token: string;
  userId: number;
  account: User | null;
  /** From the PIN confirmation; absent in sessions stored before it was kept. */
  endpoints?: AuthEndpoints;
}

/** The notice of an engine's own sign-out: why, and the number to sign in with again. */
export interface SignedOut {
  reason: SignedOutReason;
  phone: string;
}

/** A refused websocket makes the engine ask the API about its token at most this often. */
const HANDSHAKE_PROBE_INTERVAL_MS = 30_000;

/**
 * The session every tab shows. `accountPending`: the PIN was just confirmed and the account is being fetched;
 * until it comes the session still shows as signed out, so an account that has a nickname never passes
 * through the nickname step (docs/ui.md "Signing in").
 */
export function sessionView(
  auth: StoredAuth | null,
  accountPending = false,
  signedOut: SignedOut | null = null,
): SessionView {
  if (!auth) return signedOut ? { status: 'unauthenticated', signedOut } : { status: 'unauthenticated' };
  if (accountPending && !auth.account) return { status: 'unauthenticated' };
  const account = auth.account;
  const phone = account?.phone_nr ?? '';
  const countryCode = account?.country_code ?? '';
  if (!account || account.nickname === '') return { status: 'needsNickname', userId: auth.userId, phone, countryCode };
  const meta = account.image?.meta;
  const avatarUrl = meta && !meta.is_default ? meta.thumbnail || meta.url || null : null;
  return { status: 'ready', userId: auth.userId, nickname: account.nickname, phone, countryCode, avatarUrl };
}

export interface SessionOptions {
  storage: EngineStorage;
  rest: () => RestClient;
  /**
   * The sessions list, once the engine's signed-in chunk (which holds it and its calls) has loaded: a tab may
   * ask before it has, right after a reload.
   */
  sessionList: () => Promise<SessionList>;
  clock: EngineClock;
  log: (message: string, detail?: unknown) => void;
  /** The API host of the PIN request for this phone number when its country has its own (spec §7), else null. */
  pinApiBase: (phone: string) => Promise<string | null>;
}

/**
 * The signed-in user (spec §4 session states): the token and account, stored so that every tab and every
 * reload shares them. What signing in and out does to the rest of the engine is the Engine's business.
 */
export class Session {
  private readonly auth$ = new BehaviorSubject<StoredAuth | null>(null);
  /** Between a confirmed PIN and the first answer (or failure) of GET /v1/me: see `sessionView`. */
  private accountPending = false;
  /** Why the engine last signed out by itself, kept (in memory) until the next sign-in. */
  private signedOut: SignedOut | null = null;
  /** The session every tab shows, made again at each change of the three above. */
  private readonly view$ = new BehaviorSubject<SessionView>({ status: 'unauthenticated' });
  private lastHandshakeProbe = -Infinity;

  constructor(private readonly options: SessionOptions) {}

  /** The stored session, or null when signed out. */
  get auth(): StoredAuth | null {
    return this.auth$.value;
  }

  /** The stored session as emitted: null when signed out. */
  changes(): Observable<StoredAuth | null> {
    return this.auth$;
  }

  /** EngineApi `session`: the session state every tab shows. */
  session(): Observable<SessionView> {
    return this.view$.pipe(distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)));
  }

  current(): SessionView {
    return this.view$.value;
  }

  read(): Promise<StoredAuth | undefined> {
    return this.options.storage.get<StoredAuth>('session', 'auth');
  }

  /** Takes back the session `read` found at start. */
  restore(auth: StoredAuth): void {
    this.auth$.next(auth);
    this.publish();
  }

  async requestPin(phone: string): Promise<void> {
    const apiBase = await this.options.pinApiBase(phone);
    const answer = await this.options.rest().requestPin(phone, apiBase ? { apiBase } : {});
    // A 200 that did not send a PIN is still a refusal, with the spec §8 text like any other.
    if (answer.status !== 'sent') throw engineError('requestPin', 200, null, FALLBACKS.requestPin);
  }

  /** Confirms the PIN and stores the token and endpoints (spec §7); resolves with the user's id. */
  async confirmPin(phone: string, pin: string): Promise<number> {
    const { token, user_id: userId, endpoints } = await this.options.rest().confirmPin(phone, pin);
    // Stored before anything else: the PIN is single use, so a reload from here on must stay signed in. The
    // account comes next (`refreshAccount`), and the tabs see the session once it has.
    await this.save({ token, userId, account: null, endpoints: { http: endpoints.http, ws: endpoints.ws } }, true);
    return userId;
  }

  async register(nickname: string): Promise<SessionView> {
    const { account } = await this.options.rest().register(nickname);
    const auth = this.auth$.value;
    if (auth) await this.save({ ...auth, account });
    return this.current();
  }

  /**
   * Changes the nickname (trimmed, 1–50) and/or the picture (an image of at most 3 MB, uploaded first; null
   * removes it) with one PUT /v1/me; the account it answers is stored, so every tab shows it at once.
   * Contacts hear of it from the server (docs/server.md). Bad input is refused before anything is sent.
   */
  async updateProfile(changes: ProfileChanges): Promise<SessionView> {
    const nickname = changes.nickname === undefined ? undefined : changes.nickname.trim();
    const image = changes.image;
    const badImage = image !== undefined && image !== null && (!isBlob(image) || avatarProblem(image) !== null);
    if ((nickname !== undefined && nicknameError(nickname) !== null) || badImage || (nickname === undefined && image === undefined)) {
      throw engineError('updateMe', 400, null, INVALID_PARAMETERS);
    }
    if (!this.auth$.value) throw engineError('updateMe', 401, null, FALLBACKS.updateMe);
    const rest = this.options.rest();
    const imageId = image === undefined ? undefined : image === null ? 0 : (await rest.uploadImage(image)).image.id;
    const { account } = await rest.updateMe({
      ...(nickname !== undefined ? { nickname } : {}),
      ...(imageId !== undefined ? { imageId } : {}),
    });
    const auth = this.auth$.value;
    if (auth) await this.save({ ...auth, account });
    return this.current();
  }

  async refreshAccount(): Promise<void> {
    try {
      await this.refreshProfile();
    } catch (error) {
      this.options.log('profile refresh failed', error);
    } finally {
      // Without an answer the account stays unknown, and the session shows what the stored one says.
      this.accountPending = false;
      this.publish();
    }
  }

  /** GET /v1/me into the stored session; rejects (spec §8 'Failed to fetch user profile') when it fails. */
  async refreshProfile(): Promise<SessionView> {
    if (!this.auth$.value) throw engineError('getMe', 401, null, FALLBACKS.getMe);
    const { account } = await this.options.rest().getMe();
    const auth = this.auth$.value;
    if (auth) await this.save({ ...auth, account });
    return this.current();
  }

  /** The user's sessions, this browser's marked (docs/ui.md "Sessions"): GET /v1/me/sessions. */
  async sessions(): Promise<DeviceSession[]> {
    if (!this.auth$.value) throw engineError('getSessions', 401, null, FALLBACKS.getSessions);
    return (await this.options.sessionList()).list();
  }

  /** Ends one of the user's other sessions: that browser is signed out at once (its socket is closed). */
  async endSession(id: string): Promise<void> {
    if (typeof id !== 'string' || id === '') throw engineError('endSession', 400, null, INVALID_PARAMETERS);
    if (!this.auth$.value) throw engineError('endSession', 401, null, FALLBACKS.endSession);
    await (await this.options.sessionList()).end(id);
  }

  /** Ends every session of the user but this browser's; resolves how many ended. */
  async endOtherSessions(): Promise<number> {
    if (!this.auth$.value) throw engineError('endOtherSessions', 401, null, FALLBACKS.endOtherSessions);
    return (await this.options.sessionList()).endOthers();
  }

  /**
   * The socket was refused, or closed because its session ended: ask the API whether the token still works
   * (a 401 there signs out). A refused socket asks at most every HANDSHAKE_PROBE_INTERVAL_MS; `now`, at once.
   */
  probe(atOnce = false): void {
    const now = this.options.clock.now();
    if (!this.auth$.value || (!atOnce && now - this.lastHandshakeProbe < HANDSHAKE_PROBE_INTERVAL_MS)) return;
    this.lastHandshakeProbe = now;
    void this.options
      .rest()
      .getMe()
      .catch(() => undefined);
  }

  /**
   * Signed out: every tab sees it at once (the engine clears the stored session with the rest). With a
   * reason, the tabs say why and offer the same number again.
   */
  forget(reason: SignedOutReason | null = null): void {
    const phone = this.auth$.value?.account?.phone_nr ?? '';
    this.signedOut = reason ? { reason, phone } : null;
    this.accountPending = false;
    this.auth$.next(null);
    this.publish();
  }

  /** Stores the session, then shows it; `accountPending` once the write held (see `sessionView`). */
  private async save(auth: StoredAuth, accountPending = this.accountPending): Promise<void> {
    await this.options.storage.writeBatch([{ store: 'session', type: 'put', key: 'auth', value: auth }]);
    this.accountPending = accountPending;
    this.signedOut = null;
    this.auth$.next(auth);
    this.publish();
  }

  private publish(): void {
    this.view$.next(sessionView(this.auth$.value, this.accountPending, this.signedOut));
  }
}
