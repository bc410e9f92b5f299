import type { FastifyInstance } from 'fastify';

/**
 * Counts the HTTP requests this node is answering, from arrival until their connection is done with them
 * (the response's `close`: sent, or cut by the client), so a draining node knows when it may exit.
 */
export class InFlight {
  private n = 0;
  private readonly waiters = new Set<() => void>();

  constructor(app: FastifyInstance) {
    app.addHook('onRequest', async (_request, reply) => {
      this.n += 1;
      reply.raw.once('close', () => {
        this.n -= 1;
        if (this.n === 0) for (const wake of this.waiters) wake();
      });
    });
  }

  get count(): number {
    return this.n;
  }

  /** Resolves true when no request is left, or false when `timeoutMs` passed first. */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.n === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (finished: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(finished);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.waiters.add(wake);
    });
  }
}
