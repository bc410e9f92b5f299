import type {
  AddedMembersAnswer,
  ConversationAnswer,
  ConversationsAnswer,
  CreatedConversationAnswer,
  DeletedConversationAnswer,
  DeliverySettingsAnswer,
  MuteAnswer,
  RemovedMemberAnswer,
} from '../../protocol/api';
import { HEADER_MESSAGE_COUNT } from '../../protocol/api';
import { path, type RestCore } from './core';
import type { ConversationCalls } from '../contract/restCalls';
import { flag, type FormInput } from './encode';
import type {
  Id,
  ConversationSettingsInput,
  CreateConversationInput,
  DeliverySettingsInput,
  MemberInput,
  MuteInput,
  UpdateConversationInput,
} from '../contract/restInputs';

/** Latest messages per conversation in the list: the preview needs one (docs/server.md default). */
export const LIST_MESSAGE_COUNT = 1;
/** Spec §7: GET /v2/conversations/{id} sends Message-Count, default 20. */
export const CONVERSATION_MESSAGE_COUNT = 20;

const optionalFlag = (on: boolean | undefined) => (on === undefined ? undefined : flag(on));

function memberRows(members: readonly MemberInput[]): FormInput {
  return members.map((m) => ({
    name: m.name,
    type: m.type ?? 'phone_nr',
    value: m.value,
    is_admin: optionalFlag(m.isAdmin),
  }));
}

function settingsFields(settings: ConversationSettingsInput | undefined): FormInput {
  if (!settings) return undefined;
  return {
    reply_to: optionalFlag(settings.replyTo),
    show_numbers_to_all: optionalFlag(settings.showNumbersToAll),
    user_notifications_to_all: optionalFlag(settings.userNotificationsToAll),
    all_invite: optionalFlag(settings.allInvite),
  };
}

/** Spec §7 "Conversations": the list, one conversation, create, settings, mute, delivery and members. */
export function conversationCalls(core: RestCore): ConversationCalls {
  return {
    /** GET /v2/conversations with Message-Count latest messages each. */
    getConversations(options: { messageCount?: number } = {}): Promise<ConversationsAnswer> {
      return core.send({
        call: 'getConversations',
        method: 'GET',
        path: path`/v2/conversations`,
        headers: { [HEADER_MESSAGE_COUNT]: String(options.messageCount ?? LIST_MESSAGE_COUNT) },
      });
    },

    /** GET /v2/conversations/{id} with Message-Count latest messages. */
    getConversation(id: Id, options: { messageCount?: number } = {}): Promise<ConversationAnswer> {
      return core.send({
        call: 'getConversation',
        method: 'GET',
        path: path`/v2/conversations/${id}`,
        headers: { [HEADER_MESSAGE_COUNT]: String(options.messageCount ?? CONVERSATION_MESSAGE_COUNT) },
      });
    },

    /** POST /v2/conversations (form). An existing one-to-one chat comes back with `created: false`. */
    createConversation(input: CreateConversationInput): Promise<CreatedConversationAnswer> {
      return core.send({
        call: 'createConversation',
        method: 'POST',
        path: path`/v2/conversations`,
        form: {
          name: input.name,
          description: input.description,
          broadcast: optionalFlag(input.broadcast),
          force_group: optionalFlag(input.forceGroup),
          immutable_settings: optionalFlag(input.immutableSettings),
          settings: settingsFields(input.settings),
          suggested_group_tag: input.suggestedGroupTag,
          member: memberRows(input.members),
        },
      });
    },

    /** PUT /v2/conversations/{id} (form): name, description, image_id (0 removes the picture). */
    updateConversation(id: Id, input: UpdateConversationInput): Promise<ConversationAnswer> {
      return core.send({
        call: 'updateConversation',
        method: 'PUT',
        path: path`/v2/conversations/${id}`,
        form: { name: input.name, description: input.description, image_id: input.imageId },
      });
    },

    /** PUT /v2/conversations/{id}/mute (json). */
    setMute(id: Id, input: MuteInput): Promise<MuteAnswer> {
      return core.send({
        call: 'setMute',
        method: 'PUT',
        path: path`/v2/conversations/${id}/mute`,
        json: { type: input.type, ...(input.timeZone !== undefined ? { time_zone: input.timeZone } : {}) },
      });
    },

    /** POST /v2/conversations/{id}/delivery_settings (json). */
    setDeliverySettings(id: Id, input: DeliverySettingsInput): Promise<DeliverySettingsAnswer> {
      const smart = input.smartModeOptions;
      return core.send({
        call: 'setDeliverySettings',
        method: 'POST',
        path: path`/v2/conversations/${id}/delivery_settings`,
        json: {
          mode: input.mode,
          ...(smart ? { smart_mode_options: { interval_minutes: smart.intervalMinutes } } : {}),
        },
      });
    },

    /** POST /v2/conversations/{id}/users (form member[i][...]). */
    addMembers(id: Id, members: readonly MemberInput[]): Promise<AddedMembersAnswer> {
      return core.send({
        call: 'addMembers',
        method: 'POST',
        path: path`/v2/conversations/${id}/users`,
        form: { member: memberRows(members) },
      });
    },

    /** DELETE /v1/conversations/{id}/users/{userId}: an admin removes someone else. */
    removeMember(id: Id, userId: Id): Promise<RemovedMemberAnswer> {
      return core.send({ call: 'removeMember', method: 'DELETE', path: path`/v1/conversations/${id}/users/${userId}` });
    },

    /** The same call on one's own id: leaving the group (its own spec §8 text). */
    leaveConversation(id: Id, selfId: Id): Promise<RemovedMemberAnswer> {
      return core.send({
        call: 'leaveConversation',
        method: 'DELETE',
        path: path`/v1/conversations/${id}/users/${selfId}`,
      });
    },

    /** PUT /v1/conversations/{id}/users/{userId} (form is_admin 1 or 0): promote or demote. */
    setAdmin(id: Id, userId: Id, isAdmin: boolean): Promise<ConversationAnswer> {
      return core.send({
        call: 'setAdmin',
        method: 'PUT',
        path: path`/v1/conversations/${id}/users/${userId}`,
        form: { is_admin: flag(isAdmin) },
      });
    },

    /** DELETE /v1/conversations/{id}: delete the group. */
    deleteConversation(id: Id): Promise<DeletedConversationAnswer> {
      return core.send({ call: 'deleteConversation', method: 'DELETE', path: path`/v1/conversations/${id}` });
    },
  };
}
