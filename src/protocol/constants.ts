/** Business constants of spec §9 shared by the client and the reference server. */
export const PROTOCOL_VERSION = 7;
export const X_FEATURES = 15;
export const CLIENT_VERSION = 1;
export const BUILD_NUMBER = '20251023-0857';

export const DEFAULT_PING_INTERVAL_MS = 10_000;
export const PING_GRACE_MS = 3_000;
export const RECONNECT_DELAY_MS = 3_000;
/**
 * The websocket close code of a node that is shutting down (RFC 6455's 1012, "service restart"; issue 21):
 * the client reconnects at once, to whichever node the load balancer picks, not after RECONNECT_DELAY_MS.
 */
export const SOCKET_CLOSE_RESTART = 1012;
/**
 * The close code of a socket whose session was ended (logout, or ended from another device; docs/server.md
 * "Sessions"): the client asks the REST API at once, whose 401 signs it out, instead of reconnecting later.
 */
export const SOCKET_CLOSE_SESSION_ENDED = 4401;

export const MESSAGE_PAGE_SIZE = 20;
export const MESSAGE_PAGE_MAX = 100;
export const POSTS_PAGE_SIZE = 20;
export const COMMENTS_PAGE_SIZE = 50;

export const PIN_LENGTH = 4;
export const NICKNAME_MAX = 50;
/** design.md §4: group and member names are 2 to 50 characters inclusive. */
export const NAME_MIN = 2;
export const NAME_MAX = 50;
/** Our ruling: the spec names no limit; long enough for any chat message, short enough to bound a row. */
export const MESSAGE_TEXT_MAX = 10_000;
export const DESCRIPTION_MAX = 500;

export const AVATAR_MAX_BYTES = 3_145_728;
export const ATTACHMENT_MAX_BYTES = 52_428_800;
export const EDIT_WINDOW_MS = 2_700_000;

export const CLIENT_ID_MIN = 1;
export const CLIENT_ID_MAX = 10_000;

export const QUICK_REACTIONS = ['👍', '👎', '🙏', '🙌', '😂', '🥰', '😮', '😢', '🎉', '❤️'] as const;

/** MIME types accepted for message attachments (spec §5). */
export const ATTACHMENT_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'video/quicktime',
  'video/x-msvideo',
] as const;
export type AttachmentMime = (typeof ATTACHMENT_MIME_TYPES)[number];

/** Country codes whose users may use communities (spec §9). */
export const COMMUNITY_COUNTRIES: readonly string[] = ['62'];
