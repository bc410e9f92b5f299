import type { FastifyInstance } from 'fastify';

/** Something a node needs to serve: the database, and the bus between nodes once there is one. */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves when reachable; throws (or takes longer than READY_CHECK_TIMEOUT_MS) when not. */
  check(): Promise<void> | void;
}

export interface HealthOptions {
  checks: readonly ReadinessCheck[];
  draining(): boolean;
}

/** A check that has not answered in this time counts as failed: a load balancer's probe must not hang. */
export const READY_CHECK_TIMEOUT_MS = 2_000;

export type CheckState = 'ok' | 'failed';

export interface ReadyAnswer {
  status: 'ready' | 'unavailable' | 'draining';
  checks: Record<string, CheckState>;
}

async function run(check: ReadinessCheck): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), READY_CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([Promise.resolve().then(() => check.check()), timeout]);
    return 'ok';
  } catch {
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /healthz`: the process is up and answering (a liveness probe: restart it when this fails).
 * `GET /readyz`: it can serve — every check passes and it is not draining (a load balancer's probe: send it
 * traffic only while this answers 200). Both answer HEAD too, are public, and are never cached.
 */
export function registerHealthRoutes(app: FastifyInstance, options: HealthOptions): void {
  const noStore = { 'Cache-Control': 'no-store' };
  // `/health` too: it used to answer the app's page with 200, which a balancer probing it took for health.
  for (const url of ['/healthz', '/health']) {
    app.get(url, { config: { public: true } }, async (_request, reply) => reply.headers(noStore).send({ status: 'ok' }));
  }
  app.get('/readyz', { config: { public: true } }, async (_request, reply) => {
    const states = await Promise.all(options.checks.map(run));
    const checks = Object.fromEntries(options.checks.map((c, i) => [c.name, states[i] as CheckState]));
    const failed = states.includes('failed');
    const status: ReadyAnswer['status'] = options.draining() ? 'draining' : failed ? 'unavailable' : 'ready';
    return reply
      .code(status === 'ready' ? 200 : 503)
      .headers(noStore)
      .send({ status, checks } satisfies ReadyAnswer);
  });
}
