import type { ChatTurns } from './domain/chatTurns';
import type { PresenceCounter } from './realtime/presence';
import type { Clock } from './clock';
import type { ServerConfig } from './config';
import type { Store } from './db/store';
import type { FileStorage } from './files/storage';
import type { ServerMetrics } from './ops/metrics';
import type { PinDelivery } from './pins/delivery';
import type { EventLog } from './realtime/events';

/** What every route module is given: the database, the event log, time and configuration. */
export interface ServerContext {
  db: Store;
  events: EventLog;
  clock: Clock;
  config: ServerConfig;
  /** Uploaded files' bytes (a directory by default; shared by every node of a cluster). */
  files: FileStorage;
  /** This node's Prometheus metrics: a limit that refuses counts it here. */
  metrics: ServerMetrics;
  /** Hands an issued PIN to its owner (spec: out of band; server/pins/delivery.ts); throws when it could not. */
  announcePin: PinDelivery;
  /** Who is online anywhere (one node's counts, or the cluster's in Redis): for `GET /v1/users/{id}/presence`. */
  presence: PresenceCounter;
  /** Sends to one chat from this node, one at a time before they take a database connection. */
  chatTurns: ChatTurns;
  /** Closes the sockets of sessions that ended, on every node (docs/server.md "Sessions"). */
  sessionsEnded: (sessions: readonly string[]) => void;
}
