import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MIME_TYPES } from '../../protocol/constants';

/** Spec §5 attachment texts, exactly. */
export const FILE_TYPE_NOT_SUPPORTED = 'File type not supported. Please select an image or video file.';
export const FILE_TOO_LARGE = 'File size too large. Please select a file under 50MB';

/** What the rule reads of a file: a browser File has all three. */
export interface FileFacts {
  name: string;
  type: string;
  size: number;
}

/** The accepted types of spec §5; `image/jpg` is the non-standard name some systems give JPEG files. */
const ACCEPTED: ReadonlySet<string> = new Set<string>([...ATTACHMENT_MIME_TYPES, 'image/jpg']);

/** When the browser names no type (some systems, drag and drop from some apps), the extension decides. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  webm: 'video/webm',
  ogg: 'video/ogg',
  ogv: 'video/ogg',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
};

/** The file's type as the rule sees it: its own, else the one its extension implies, else ''. */
export function attachmentMime(file: FileFacts): string {
  const declared = file.type.toLowerCase().split(';')[0]?.trim() ?? '';
  if (declared !== '') return declared === 'image/jpg' ? 'image/jpeg' : declared;
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return BY_EXTENSION[extension] ?? '';
}

/**
 * Spec §5 message attachment rule: only the listed image and video types, at most 52,428,800 bytes.
 * Returns the spec's error text, or null when the file may be sent. The server checks the bytes again.
 */
export function attachmentProblem(file: FileFacts): string | null {
  const mime = attachmentMime(file);
  if (!ACCEPTED.has(mime)) return FILE_TYPE_NOT_SUPPORTED;
  if (file.size > ATTACHMENT_MAX_BYTES) return FILE_TOO_LARGE;
  return null;
}

/** Which kind of attachment an accepted file becomes (spec §7 attachment.type). */
export function attachmentKind(file: FileFacts): 'image' | 'video' {
  return attachmentMime(file).startsWith('video/') ? 'video' : 'image';
}
