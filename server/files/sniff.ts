import { fileTypeFromBuffer } from 'file-type';
import type { AttachmentMime } from '../../src/protocol/constants';

/**
 * How many leading bytes `sniffMime` reads: what `file-type` needs to tell its formats apart (its own
 * `reasonableDetectionSizeInBytes`).
 */
export const SNIFF_BYTES = 4100;

/**
 * The accepted types of spec §5 by what `file-type` calls them. Everything else is refused, notably the
 * ISO-BMFF brands that are not video (AVIF, HEIC/HEIF images, M4A audio), Ogg and Matroska that are not
 * Ogg video or WebM, and SVG (text, which `file-type` does not type): docs/server.md "Uploads".
 */
const ACCEPTED: Readonly<Record<string, AttachmentMime>> = {
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  // An animated PNG is a PNG: every browser shows it, and a decoder that does not animate shows its first frame.
  'image/apng': 'image/png',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
  'video/mp4': 'video/mp4',
  // Apple's M4V is an MP4 video under another brand.
  'video/x-m4v': 'video/mp4',
  'video/webm': 'video/webm',
  'video/ogg': 'video/ogg',
  'video/quicktime': 'video/quicktime',
  'video/vnd.avi': 'video/x-msvideo',
  'video/x-msvideo': 'video/x-msvideo',
};

/**
 * The attachment type a file really is, from its first bytes (never its name or the client's word),
 * or null when it is none of the accepted types of spec §5.
 */
export async function sniffMime(bytes: Uint8Array): Promise<AttachmentMime | null> {
  const found = await fileTypeFromBuffer(bytes).catch(() => undefined);
  return (found && ACCEPTED[found.mime]) ?? null;
}

export const EXTENSIONS: Record<AttachmentMime, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/ogg': 'ogv',
  'video/quicktime': 'mov',
  'video/x-msvideo': 'avi',
};
