import type { EventType } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import { sql } from '../db/store';
import { badRequest } from '../http/errors';
import { IMAGE_ID_RANGE, numberSchema } from '../http/numbers';
import { memberIds, requireAdmin } from './access';
import { emitConversationEdit, postChangeEvent } from './conversationEvents';
import { requireGroup, validDescription, validGroupName } from './conversationRules';
import type { ConversationRow, MemberRow } from './rows';

export interface EditConversationBody {
  name?: string;
  description?: string;
  /** An avatar the caller uploaded through /v1/images; 0 removes the group's picture. */
  image_id?: number;
}

export const editBodySchema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 1000 },
    description: { type: 'string', maxLength: 5000 },
    image_id: numberSchema(IMAGE_ID_RANGE),
  },
} as const;

/**
 * Renames a group, changes its description or picture (spec §6: admins only). Each real change posts
 * its system message; one conversation_edit follows. Unchanged values change nothing and tell no one.
 */
export async function editConversation(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  body: EditConversationBody,
): Promise<void> {
  const { db } = ctx;
  requireGroup(conversation, 'A one-to-one chat has no group settings');
  requireAdmin(member, 'Only admins can change group settings');
  if (body.name === undefined && body.description === undefined && body.image_id === undefined) {
    throw badRequest('Nothing to update');
  }
  const name = body.name === undefined ? conversation.name : validGroupName(body.name);
  const description = body.description === undefined ? conversation.description : validDescription(body.description);
  let imageId = conversation.image_file_id;
  if (body.image_id !== undefined) {
    imageId = body.image_id === 0 ? null : body.image_id;
    if (imageId !== null) {
      const file = await db.get<{ id: number }>(
        sql`SELECT id FROM files WHERE id = ${imageId} AND owner_id = ${member.user_id} AND purpose = 'avatar'`,
      );
      if (!file) throw badRequest('Unknown image');
    }
  }
  const changes: EventType[] = [];
  if (name !== conversation.name) changes.push('conversation_renamed');
  if (description !== conversation.description) changes.push('conversation_description_changed');
  if (imageId !== conversation.image_file_id) changes.push('conversation_picture_change');
  if (changes.length === 0) return;

  await ctx.events.transaction(async () => {
    await db.run(
      sql`UPDATE conversations SET name = ${name}, description = ${description}, image_file_id = ${imageId}
          WHERE id = ${conversation.id}`,
    );
    for (const eventType of changes) {
      await postChangeEvent(ctx, conversation.id, member.user_id, eventType, { name, description, user_id: member.user_id });
    }
    await emitConversationEdit(ctx, conversation.id, await memberIds(db, conversation.id));
  });
}
