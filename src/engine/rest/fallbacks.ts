/**
 * The spec §8 texts shown when a call fails without a message from the server, one per REST call,
 * copied exactly from the catalogue. Calls the catalogue names no text for get its generic ones.
 */
export const UNEXPECTED = 'An unexpected error occurred';
const NETWORK = 'Network error occurred';

export const FALLBACKS = {
  // Login and profile
  requestPin: 'Failed to request the PIN code',
  confirmPin: 'Invalid PIN code',
  getMe: 'Failed to fetch user profile',
  updateMe: 'Failed to update user profile',
  register: 'Failed to register user',
  getCountries: 'Failed to fetch countries',
  // Ours: sessions (docs/ui.md "Sessions"); a logout that fails still signs out here, so its text is for scripts.
  logout: 'Failed to log out',
  getSessions: 'Failed to fetch sessions',
  endSession: 'Failed to end the session',
  endOtherSessions: 'Failed to end the other sessions',
  // Files: the catalogue has one upload text, for attachments as for avatars.
  uploadFile: 'Failed to upload image',
  uploadImage: 'Failed to upload image',
  // Conversations
  getConversations: 'Failed to fetch conversations list',
  getConversation: 'Failed to fetch conversation',
  getMessages: 'Failed to fetch conversation messages',
  createConversation: 'Failed to create conversation',
  updateConversation: 'Failed to update conversation settings',
  setMute: 'Failed to update mute settings',
  setDeliverySettings: 'Failed to update delivery settings',
  // Members
  addMembers: 'Failed to add users to chat',
  removeMember: 'Failed to remove user from chat',
  leaveConversation: 'Failed to leave group',
  setAdmin: 'Failed to update user admin status',
  deleteConversation: 'Failed to delete group',
  // Messages
  sendMessage: 'Failed to send message',
  sendMessageAsComment: 'Failed to send message',
  editMessage: 'Failed to edit message',
  sendReceipt: 'Failed to update message status',
  getDlrs: 'Failed to fetch DLR status',
  addReaction: 'Failed to add reaction',
  removeReaction: 'Failed to remove reaction',
  deleteMessages: 'Failed to delete messages',
  hideMessages: 'Failed to hide messages',
  // Communities and channels
  getCommunities: UNEXPECTED,
  searchCommunities: UNEXPECTED,
  getCommunity: UNEXPECTED,
  joinCommunity: 'Failed to join community',
  leaveCommunity: 'Failed to leave community',
  getCommunityChannels: UNEXPECTED,
  getChannel: 'Failed to load channel',
  joinChannel: UNEXPECTED,
  leaveChannel: 'Failed to leave channel',
  // Posts are channel messages, so a failed post is a failed send.
  getPosts: UNEXPECTED,
  createPost: 'Failed to send message',
  // Comments
  getComments: 'Failed to fetch comments',
  createComment: 'Failed to send message',
  addPostReaction: 'Failed to add reaction',
  removePostReaction: 'Failed to remove reaction',
  addCommentReaction: 'Failed to add reaction',
  removeCommentReaction: 'Failed to remove reaction',
  // Ours (issue 23): presence is a hint, never shown as an error; the text is for scripts.
  getPresence: 'Failed to fetch presence',
} as const satisfies Record<string, string>;

export type RestCallName = keyof typeof FALLBACKS;

/**
 * Where the catalogue has a text for a failure to reach the server at all, it is used instead when no
 * answer arrived; elsewhere the call's own text is (so a dropped send still says "Failed to send message").
 */
const NETWORK_FALLBACKS: Partial<Record<RestCallName, string>> = {
  getComments: 'Network error occurred while fetching post comments',
  getCommunities: NETWORK,
  searchCommunities: NETWORK,
  getCommunity: NETWORK,
  getCommunityChannels: NETWORK,
  joinChannel: NETWORK,
  getPosts: NETWORK,
  // Spec §8 "Network error occurred while …": the catalogue names these actions and cuts the texts off;
  // the endings are ours (docs/ui.md).
  addReaction: 'Network error occurred while adding a reaction',
  removeReaction: 'Network error occurred while removing a reaction',
  addPostReaction: 'Network error occurred while adding a reaction',
  removePostReaction: 'Network error occurred while removing a reaction',
  addCommentReaction: 'Network error occurred while adding a reaction',
  removeCommentReaction: 'Network error occurred while removing a reaction',
  addMembers: 'Network error occurred while adding a member',
  removeMember: 'Network error occurred while removing a member',
  setAdmin: 'Network error occurred while promoting or demoting a member',
  deleteConversation: 'Network error occurred while deleting the group',
  leaveConversation: 'Network error occurred while leaving the group',
};

/** The text for a call that got no answer (`network`) or an answer without a usable message. */
export function fallbackFor(call: RestCallName, reason: 'network' | 'answer'): string {
  return (reason === 'network' ? NETWORK_FALLBACKS[call] : undefined) ?? FALLBACKS[call];
}

/** Refusals made before sending (spec §5: a missing id or reaction), per the catalogue. */
export const INVALID_PARAMETERS = 'Invalid parameters provided';
export const INVALID_CONVERSATION_ID = 'Invalid conversation ID provided';
/** Spec §5/§8: a send or a comment without text (and, for a send, without a file). */
export const INVALID_MESSAGE = 'Invalid message provided';
