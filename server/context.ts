import type { Clock } from './clock';
import type { ServerConfig } from './config';
import type { Db } from './db/database';
import type { EventLog } from './realtime/events';

/** What every route module is given: the database, the event log, time and configuration. */
export interface ServerContext {
  db: Db;
  events: EventLog;
  clock: Clock;
  config: ServerConfig;
  filesDir: string;
  /** Where PINs are printed: the server console (spec: delivery of the PIN is out of band). */
  announcePin(phone: string, pin: string): void;
}
