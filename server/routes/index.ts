import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { registerAuthRoutes } from './auth';
import { registerCommunityRoutes } from './communities';
import { registerConversationRoutes } from './conversations';
import { registerFileRoutes } from './files';
import { registerMessageRoutes } from './messages';
import { registerPresenceRoutes } from './presence';
import { registerSessionRoutes } from './sessions';

export function registerRoutes(app: FastifyInstance, ctx: ServerContext): void {
  registerAuthRoutes(app, ctx);
  registerSessionRoutes(app, ctx);
  registerFileRoutes(app, ctx);
  registerConversationRoutes(app, ctx);
  registerMessageRoutes(app, ctx);
  registerCommunityRoutes(app, ctx);
  registerPresenceRoutes(app, ctx);
}
