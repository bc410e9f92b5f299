import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';

export function registerCommunityRoutes(_app: FastifyInstance, _ctx: ServerContext): void {}
