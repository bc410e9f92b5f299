import type { TFunction } from 'i18next';
import { isEngineError } from '../../engine/api';
import { refusalText } from './refusalText';

/** A key of `src/locales/<language>/errors.json` (the locale test checks each one of the table below). */
type ErrorKey = string;

/** The spec §8 texts the engine gives (server messages or fallbacks), by their English wording: the UI shows them translated. */
export const KNOWN_ERRORS: Readonly<Record<string, ErrorKey>> = {
  "An unexpected error occurred": 'errors.unexpected',
  // The engine's own: its database was deleted under it (docs/ui.md, "Site data cleared").
  "This browser's data was cleared": 'errors.storeCleared',
  "Network error occurred": 'errors.network',
  "Invalid parameters provided": 'errors.invalidParameters',
  "Invalid message provided": 'errors.invalidMessage',
  "Invalid conversation ID provided": 'errors.invalidConversationId',
  "Invalid PIN code": 'errors.invalidPin',
  "Failed to request the PIN code": 'errors.requestPin',
  "Failed to fetch user profile": 'errors.fetchProfile',
  "Failed to update user profile": 'errors.updateProfile',
  "Failed to register user": 'errors.register',
  "Failed to fetch countries": 'errors.fetchCountries',
  "Failed to load countries": 'errors.loadCountries',
  "Failed to upload image": 'errors.uploadImage',
  "Failed to fetch conversations list": 'errors.fetchConversations',
  "Failed to fetch conversation": 'errors.fetchConversation',
  "Failed to fetch conversation messages": 'errors.fetchMessages',
  "Failed to create conversation": 'errors.createConversation',
  "Failed to update conversation settings": 'errors.updateSettings',
  "Failed to update mute settings": 'errors.updateMute',
  "Failed to update delivery settings": 'errors.updateDelivery',
  "Failed to add users to chat": 'errors.addUsers',
  "Failed to remove user from chat": 'errors.removeUser',
  "Failed to update user admin status": 'errors.updateAdmin',
  "Failed to delete group": 'errors.deleteGroup',
  "Failed to leave group": 'errors.leaveGroup',
  "Failed to send message": 'errors.sendMessage',
  "Failed to edit message": 'errors.editMessage',
  "Failed to update message status": 'errors.updateStatus',
  "Failed to fetch DLR status": 'errors.fetchDlrs',
  "Failed to fetch presence": 'errors.fetchPresence',
  "Failed to add reaction": 'errors.addReaction',
  "Failed to remove reaction": 'errors.removeReaction',
  "Failed to delete messages": 'errors.deleteMessages',
  "Failed to hide messages": 'errors.hideMessages',
  "Failed to fetch comments": 'errors.fetchComments',
  "Network error occurred while fetching post comments": 'errors.fetchCommentsNetwork',
  "Failed to join community": 'errors.joinCommunity',
  "Failed to leave community": 'errors.leaveCommunity',
  "Community not found": 'errors.communityNotFound',
  "No communities available": 'errors.noCommunities',
  "No communities found matching your search.": 'errors.noCommunitiesFound',
  "No channels available": 'errors.noChannels',
  "No channel selected": 'errors.noChannelSelected',
  "Failed to load channel": 'errors.loadChannel',
  "No channel data available": 'errors.noChannelData',
  "Community ID not available": 'errors.communityIdMissing',
  "Failed to leave channel": 'errors.leaveChannel',
  "Network error occurred while adding a reaction": 'errors.addReactionNetwork',
  "Network error occurred while removing a reaction": 'errors.removeReactionNetwork',
  "Network error occurred while adding a member": 'errors.addMemberNetwork',
  "Network error occurred while removing a member": 'errors.removeMemberNetwork',
  "Network error occurred while promoting or demoting a member": 'errors.adminNetwork',
  "Network error occurred while deleting the group": 'errors.deleteGroupNetwork',
  "Network error occurred while leaving the group": 'errors.leaveGroupNetwork',
};

/**
 * What a failed command shows: a refusal with a code in the app's own words (docs/ui.md "Refusals"), else
 * the engine's message (the server's, else the spec §8 fallback), in the user's language when it is one of
 * the catalogue's texts; a server text outside it as the server wrote it (in the language the engine asked
 * it for: the app's).
 */
export function errorText(error: unknown, t: TFunction): string {
  const refusal = isEngineError(error) ? refusalText(error, t) : null;
  if (refusal !== null) return refusal;
  const message = isEngineError(error) ? error.message : error instanceof Error && error.message ? error.message : null;
  if (message === null) return t('errors.unexpected');
  // Own keys only: a server or engine message such as "constructor" must come back as it is.
  const key = Object.hasOwn(KNOWN_ERRORS, message) ? KNOWN_ERRORS[message] : undefined;
  return key ? t(key) : message;
}
