import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Store } from '../db/store';

/** The limits whose refusals are counted (issue 21): each answers 429 with a translated message. */
export type LimitName = 'pin_request' | 'pin_failures' | 'send_rate' | 'auth_ip';

/**
 * One node's Prometheus metrics (`GET /metrics` on its metrics listener, server/ops/metricsListener.ts). A registry of its own per server, not
 * prom-client's global one: tests build many servers in one process, and each must count only its own.
 */
export interface ServerMetrics {
  readonly registry: Registry;
  /** Replayable events stored, by action (a rate of it is events/s). One per receiver. */
  readonly eventsStored: Counter<'action'>;
  /** From an event's commit to its frame being handed to a receiver's socket. */
  readonly deliverySeconds: Histogram;
  /** Each database statement's time, by whether it reads or writes. */
  readonly databaseSeconds: Histogram<'kind'>;
  readonly limitRefusals: Counter<'limit'>;
  /** Answers by status class (2xx…5xx). */
  readonly httpAnswers: Counter<'status'>;
  /** Each answer's time by method, route pattern and status class (server/ops/requestDuration.ts). */
  readonly httpSeconds: Histogram<'method' | 'route' | 'status_class'>;
  /** Notes to the other nodes that could not be published (Redis away): their events wait for the sweep. */
  readonly busPublishFailures: Counter;
  /** Reads of the database for a socket's missed events, by why (a gap no note filled in time, or the sweep). */
  readonly catchUpReads: Counter<'reason'>;
}

export interface MetricsSources {
  /** Open websockets on this node, read when scraped. */
  sockets(): number;
  /** Whether the node is draining (SIGTERM), read when scraped. */
  draining(): boolean;
}

/** Seconds: a delivery is expected within milliseconds on one node and a few more across a bus. */
const DELIVERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Seconds: most API answers take milliseconds; an upload or a loaded node seconds. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DATABASE_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1];

export function createMetrics(sources: MetricsSources): ServerMetrics {
  const registry = new Registry();
  // CPU, memory, event-loop lag and handles of the process: each node's CPU in the cluster benchmark. Under
  // their standard names (`process_*`, `nodejs_*`), unprefixed: the usual Node.js dashboards expect them.
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'messenger_websocket_connections',
    help: 'Open websockets on this node.',
    registers: [registry],
    collect() {
      this.set(sources.sockets());
    },
  });
  new Gauge({
    name: 'messenger_draining',
    help: '1 while the node drains after SIGTERM (readyz answers 503), else 0.',
    registers: [registry],
    collect() {
      this.set(sources.draining() ? 1 : 0);
    },
  });
  return {
    registry,
    eventsStored: new Counter({
      name: 'messenger_events_stored_total',
      help: 'Replayable events stored, one per receiver, by action.',
      labelNames: ['action'],
      registers: [registry],
    }),
    deliverySeconds: new Histogram({
      name: 'messenger_event_delivery_seconds',
      help: 'From an event’s commit to its frame being sent on a receiver’s socket.',
      buckets: DELIVERY_BUCKETS,
      registers: [registry],
    }),
    databaseSeconds: new Histogram({
      name: 'messenger_database_statement_seconds',
      help: 'Time of each database statement, by kind (read or write).',
      labelNames: ['kind'],
      buckets: DATABASE_BUCKETS,
      registers: [registry],
    }),
    limitRefusals: new Counter({
      name: 'messenger_limit_refusals_total',
      help: 'Requests refused by a limit (429), by limit.',
      labelNames: ['limit'],
      registers: [registry],
    }),
    busPublishFailures: new Counter({
      name: 'messenger_bus_publish_failures_total',
      help: 'Notes to the other nodes that could not be published; their events reach them by the sweep.',
      registers: [registry],
    }),
    catchUpReads: new Counter({
      name: 'messenger_catchup_reads_total',
      help: 'Reads of the database for a socket’s missed events, by reason: gap (a note did not come in time) or sweep.',
      labelNames: ['reason'],
      registers: [registry],
    }),
    httpAnswers: new Counter({
      name: 'messenger_http_answers_total',
      help: 'HTTP answers by status class.',
      labelNames: ['status'],
      registers: [registry],
    }),
    // Prometheus's conventional name, unprefixed, as dashboards and alert rules for HTTP services expect it.
    httpSeconds: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time of each HTTP answer, by method, route pattern (unmatched: no route) and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: HTTP_BUCKETS,
      registers: [registry],
    }),
  };
}

/** Times every statement the store runs from now on, by kind (read or write). */
export function timeStatements(store: Store, histogram: ServerMetrics['databaseSeconds']): void {
  const reads = histogram.labels('read');
  const writes = histogram.labels('write');
  store.timeStatements((kind, seconds) => (kind === 'read' ? reads : writes).observe(seconds));
}
