import type { FastifyInstance } from 'fastify';
import type {
  AddedMembersAnswer,
  ConversationAnswer,
  DeletedConversationAnswer,
  RemovedMemberAnswer,
} from '../../src/protocol/api';
import type { ServerContext } from '../context';
import { requireMembership } from '../domain/access';
import { CONVERSATION_MESSAGE_COUNT, type Flag, flagSchema, isOn } from '../domain/conversationRules';
import { addMembers, deleteGroup, parseUserKey, removeMember, setAdmin } from '../domain/membersChange';
import { type MemberField, memberListSchema } from '../domain/membersResolve';
import { conversationView } from '../domain/serialize';
import { me } from '../http/auth';
import { badRequest } from '../http/errors';
import { ok } from '../http/reply';

type IdParams = { Params: { id: string } };
type UserParams = { Params: { id: string; userId: string } };

export function registerConversationMemberRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;
  const view = (id: number, viewerId: number) => conversationView(db, id, viewerId, CONVERSATION_MESSAGE_COUNT);

  app.post<IdParams & { Body: { member?: MemberField[] } }>(
    '/v2/conversations/:id/users',
    { schema: { body: { type: 'object', properties: { member: memberListSchema } } } },
    async (request) => {
      const caller = me(request);
      const { conversation, member } = await requireMembership(db, request.params.id, caller.id);
      const added = await addMembers(ctx, conversation, member, caller, request.body?.member ?? []);
      return ok<AddedMembersAnswer>({
        conversation: await view(conversation.id, caller.id),
        added_user_ids: added,
      });
    },
  );

  app.delete<UserParams>('/v1/conversations/:id/users/:userId', async (request) => {
    const userId = me(request).id;
    const { conversation, member } = await requireMembership(db, request.params.id, userId);
    const targetId = await parseUserKey(db, request.params.userId);
    const stillMember = await removeMember(ctx, conversation, member, targetId);
    return ok<RemovedMemberAnswer>({
      conversation_id: conversation.id,
      user_id: targetId,
      conversation: stillMember ? await view(conversation.id, userId) : null,
    });
  });

  app.put<UserParams & { Body: { is_admin: Flag } }>(
    '/v1/conversations/:id/users/:userId',
    { schema: { body: { type: 'object', required: ['is_admin'], properties: { is_admin: flagSchema } } } },
    async (request) => {
      const userId = me(request).id;
      const { conversation, member } = await requireMembership(db, request.params.id, userId);
      const targetId = await parseUserKey(db, request.params.userId);
      if (request.body.is_admin === '') throw badRequest('is_admin must be 1 or 0');
      await setAdmin(ctx, conversation, member, targetId, isOn(request.body.is_admin));
      return ok<ConversationAnswer>({ conversation: await view(conversation.id, userId) });
    },
  );

  app.delete<IdParams>('/v1/conversations/:id', async (request) => {
    const userId = me(request).id;
    const { conversation, member } = await requireMembership(db, request.params.id, userId);
    await deleteGroup(ctx, conversation, member);
    return ok<DeletedConversationAnswer>({ conversation_id: conversation.id });
  });
}
