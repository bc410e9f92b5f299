import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { ConfigError } from '../config';
import { type HealthOptions, registerHealthRoutes } from './health';
import { isLoopbackHost } from './loopback';
import type { ServerMetrics } from './metrics';
import { registerMetricsRoute } from './metricsRoute';
import { ProbeLogController } from './probeLogging';

export interface MetricsListenerOptions {
  port: number;
  host: string;
  /** METRICS_TOKEN: wanted as a bearer token when set; required when `host` is not loopback. */
  token: string | undefined;
  metrics: ServerMetrics;
  /** The app listener's readiness, answered here too: a probe need not go through the public port. */
  health: HealthOptions;
  /** The node's log (its JSON lines), or undefined for none. */
  log: FastifyBaseLogger | undefined;
}

export interface MetricsListener {
  /** Listens on the configured port (0: a free one) and resolves to its base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Refuses metrics open beyond loopback: configFromEnv checks METRICS_HOST already; this is for a config built
 * otherwise, before the server opens anything.
 */
export function assertMetricsGuarded(host: string, token: string | undefined): void {
  if (!isLoopbackHost(host) && token === undefined) throw new ConfigError(`METRICS_HOST=${host} is not loopback: set METRICS_TOKEN too`);
}

/**
 * The node's second listener, for its operators only (docs/server.md, "Metrics"): `/metrics`, `/healthz` and
 * `/readyz`, on METRICS_HOST:METRICS_PORT (loopback by default), as Mattermost, Synapse and Centrifugo serve
 * theirs apart from the app. The app's port has no metrics route, so no spelling of the path a proxy lets
 * through can reach them.
 */
export function createMetricsListener(options: MetricsListenerOptions): MetricsListener {
  const app: FastifyInstance = Fastify({
    ...(options.log ? { loggerInstance: options.log.child({ listener: 'metrics' }) } : {}),
    logController: new ProbeLogController(),
    forceCloseConnections: true,
  });
  registerHealthRoutes(app, options.health);
  registerMetricsRoute(app, options.metrics, options.token);
  let url: string | undefined;
  return {
    async listen() {
      await app.listen({ port: options.port, host: options.host });
      const { port } = app.server.address() as { port: number };
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
      return url;
    },
    async close() {
      await app.close();
    },
  };
}
