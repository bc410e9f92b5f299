import type { TFunction } from 'i18next';
import { isEngineError } from '../../engine/api';
import { refusalText } from './refusalText';

/**
 * A key of `src/locales/<language>/errors.json` (what the login screens can show: their group of texts) or
 * `failures.json` (what only the screens behind sign-in show); the locale test checks each one of the table below.
 */
type ErrorKey = string;

/** The spec §8 texts the engine gives (server messages or fallbacks), by their English wording: the UI shows them translated. */
export const KNOWN_ERRORS: Readonly<Record<string, ErrorKey>> = {
  "An unexpected error occurred": 'errors.unexpected',
  // The engine's own: its database was deleted under it (docs/ui.md, "Site data cleared").
  "This browser's data was cleared": 'errors.storeCleared',
  "Network error occurred": 'errors.network',
  "Invalid parameters provided": 'errors.invalidParameters',
  "Invalid message provided": 'errors.invalidMessage',
  "Invalid conversation ID provided": 'failures.invalidConversationId',
  "Invalid PIN code": 'errors.invalidPin',
  "Failed to request the PIN code": 'errors.requestPin',
  "Failed to fetch user profile": 'failures.fetchProfile',
  "Failed to update user profile": 'failures.updateProfile',
  "Failed to register user": 'errors.register',
  "Failed to fetch countries": 'errors.fetchCountries',
  "Failed to load countries": 'errors.loadCountries',
  "Failed to upload image": 'failures.uploadImage',
  "Failed to fetch conversations list": 'failures.fetchConversations',
  "Failed to fetch conversation": 'failures.fetchConversation',
  "Failed to fetch conversation messages": 'failures.fetchMessages',
  "Failed to create conversation": 'failures.createConversation',
  "Failed to update conversation settings": 'failures.updateSettings',
  "Failed to update mute settings": 'failures.updateMute',
  "Failed to update delivery settings": 'failures.updateDelivery',
  "Failed to add users to chat": 'failures.addUsers',
  "Failed to remove user from chat": 'failures.removeUser',
  "Failed to update user admin status": 'failures.updateAdmin',
  "Failed to delete group": 'failures.deleteGroup',
  "Failed to leave group": 'failures.leaveGroup',
  "Failed to send message": 'failures.sendMessage',
  "Failed to edit message": 'failures.editMessage',
  "Failed to update message status": 'failures.updateStatus',
  "Failed to fetch DLR status": 'failures.fetchDlrs',
  "Failed to fetch presence": 'failures.fetchPresence',
  // Ours: the account page's sessions (docs/ui.md "Sessions").
  "Failed to fetch sessions": 'failures.sessions.fetch',
  "Failed to end the session": 'failures.sessions.end',
  "Failed to end the other sessions": 'failures.sessions.endOthers',
  "Failed to add reaction": 'failures.addReaction',
  "Failed to remove reaction": 'failures.removeReaction',
  "Failed to delete messages": 'failures.deleteMessages',
  "Failed to hide messages": 'failures.hideMessages',
  "Failed to fetch comments": 'failures.fetchComments',
  "Network error occurred while fetching post comments": 'failures.fetchCommentsNetwork',
  "Failed to join community": 'failures.joinCommunity',
  "Failed to leave community": 'failures.leaveCommunity',
  "Community not found": 'failures.communityNotFound',
  "No communities available": 'failures.noCommunities',
  "No communities found matching your search.": 'failures.noCommunitiesFound',
  "No channels available": 'failures.noChannels',
  "No channel selected": 'failures.noChannelSelected',
  "Failed to load channel": 'failures.loadChannel',
  "No channel data available": 'failures.noChannelData',
  "Community ID not available": 'failures.communityIdMissing',
  "Failed to leave channel": 'failures.leaveChannel',
  "Network error occurred while adding a reaction": 'failures.addReactionNetwork',
  "Network error occurred while removing a reaction": 'failures.removeReactionNetwork',
  "Network error occurred while adding a member": 'failures.addMemberNetwork',
  "Network error occurred while removing a member": 'failures.removeMemberNetwork',
  "Network error occurred while promoting or demoting a member": 'failures.adminNetwork',
  "Network error occurred while deleting the group": 'failures.deleteGroupNetwork',
  "Network error occurred while leaving the group": 'failures.leaveGroupNetwork',
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
