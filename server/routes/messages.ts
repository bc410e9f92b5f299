import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';

export function registerMessageRoutes(_app: FastifyInstance, _ctx: ServerContext): void {}
