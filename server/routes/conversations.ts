import type { FastifyInstance } from 'fastify';
import type {
  ConversationAnswer,
  ConversationsAnswer,
  CreatedConversationAnswer,
  DeliveryMode,
  DeliverySettingsAnswer,
  MuteAnswer,
  MuteType,
} from '../../src/protocol/api';
import { HEADER_MESSAGE_COUNT } from '../../src/protocol/api';
import type { ServerContext } from '../context';
import { requireMembership } from '../domain/access';
import { createConversation, type CreateConversationBody } from '../domain/conversationCreate';
import { editBodySchema, editConversation, type EditConversationBody } from '../domain/conversationEdit';
import {
  deliveryBodySchema,
  muteBodySchema,
  setDeliverySettings,
  setMute,
} from '../domain/conversationPreferences';
import {
  CONVERSATION_MESSAGE_COUNT,
  CONVERSATION_MESSAGE_COUNT_MAX,
  flagSchema,
  LIST_MESSAGE_COUNT,
  LIST_MESSAGE_COUNT_MAX,
  messageCountHeader,
} from '../domain/conversationRules';
import { emitConversationEdit } from '../domain/conversationEvents';
import { listConversations } from '../domain/conversationList';
import { memberListSchema } from '../domain/membersResolve';
import { conversationView, serializeConversation } from '../domain/serialize';
import { me } from '../http/auth';
import { ok } from '../http/reply';
import { registerConversationMemberRoutes } from './conversationMembers';

const MESSAGE_COUNT = HEADER_MESSAGE_COUNT.toLowerCase();

type IdParams = { Params: { id: string } };

const createBodySchema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 1000 },
    description: { type: 'string', maxLength: 5000 },
    broadcast: flagSchema,
    force_group: flagSchema,
    immutable_settings: flagSchema,
    suggested_group_tag: { type: 'string', maxLength: 100 },
    settings: {
      type: 'object',
      properties: {
        reply_to: flagSchema,
        show_numbers_to_all: flagSchema,
        user_notifications_to_all: flagSchema,
        all_invite: flagSchema,
      },
    },
    member: memberListSchema,
  },
} as const;

export function registerConversationRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.get('/v2/conversations', async (request) => {
    const userId = me(request).id;
    const count = messageCountHeader(request.headers[MESSAGE_COUNT], LIST_MESSAGE_COUNT, 0, LIST_MESSAGE_COUNT_MAX);
    return ok<ConversationsAnswer>({
      conversations: (await listConversations(db, userId, count)).map((conversation) => ({ conversation })),
    });
  });

  app.get<IdParams>('/v2/conversations/:id', async (request) => {
    const userId = me(request).id;
    const count = messageCountHeader(
      request.headers[MESSAGE_COUNT],
      CONVERSATION_MESSAGE_COUNT,
      0,
      CONVERSATION_MESSAGE_COUNT_MAX,
    );
    const { conversation } = await requireMembership(db, request.params.id, userId);
    return ok<ConversationAnswer>({ conversation: await serializeConversation(db, conversation, userId, count) });
  });

  app.post<{ Body: CreateConversationBody }>(
    '/v2/conversations',
    { schema: { body: createBodySchema } },
    async (request) => {
      const caller = me(request);
      const { id, created } = await createConversation(ctx, caller, request.body ?? {});
      // `created` is false when an existing one-to-one chat between the two was returned instead.
      return ok<CreatedConversationAnswer>({
        conversation: await conversationView(db, id, caller.id, CONVERSATION_MESSAGE_COUNT),
        created,
      });
    },
  );

  app.put<IdParams & { Body: EditConversationBody }>(
    '/v2/conversations/:id',
    { schema: { body: editBodySchema } },
    async (request) => {
      const userId = me(request).id;
      const { conversation, member } = await requireMembership(db, request.params.id, userId);
      await editConversation(ctx, conversation, member, request.body ?? {});
      return ok<ConversationAnswer>({
        conversation: await conversationView(db, conversation.id, userId, CONVERSATION_MESSAGE_COUNT),
      });
    },
  );

  app.put<IdParams & { Body: { type: MuteType | 'unmute'; time_zone?: string } }>(
    '/v2/conversations/:id/mute',
    { schema: { body: muteBodySchema } },
    async (request) => {
      const userId = me(request).id;
      const { conversation } = await requireMembership(db, request.params.id, userId);
      const answer = await ctx.events.transaction(async () => {
        const muted = await setMute(db, conversation.id, userId, request.body, ctx.clock.now());
        // The user's other devices show the chat muted too (docs/server.md).
        await emitConversationEdit(ctx, conversation.id, [userId]);
        return muted;
      });
      return ok<MuteAnswer>(answer);
    },
  );

  app.post<IdParams & { Body: { mode: DeliveryMode; smart_mode_options?: { interval_minutes?: number } } }>(
    '/v2/conversations/:id/delivery_settings',
    { schema: { body: deliveryBodySchema } },
    async (request) => {
      const userId = me(request).id;
      const { conversation } = await requireMembership(db, request.params.id, userId);
      return ok<DeliverySettingsAnswer>(await setDeliverySettings(db, conversation.id, userId, request.body));
    },
  );

  registerConversationMemberRoutes(app, ctx);
}
