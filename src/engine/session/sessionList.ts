import type { DeviceSession } from '../contract/types';
import type { RestClient } from '../rest';

/**
 * The account page's sessions list (docs/ui.md "Sessions"), in the signed-in chunk: the worker a visitor of
 * /login starts has no use for it. `Session` checks the sign-in and the arguments before it loads.
 */
export class SessionList {
  constructor(private readonly rest: () => RestClient) {}

  async list(): Promise<DeviceSession[]> {
    const { sessions } = await this.rest().getSessions();
    return sessions.map((s) => ({
      id: s.id,
      browser: s.browser,
      os: s.os,
      createdAt: s.created_at,
      lastActiveAt: s.last_active_at,
      current: s.current,
    }));
  }

  async end(id: string): Promise<void> {
    await this.rest().endSession(id);
  }

  async endOthers(): Promise<number> {
    return (await this.rest().endOtherSessions()).ended;
  }
}
