import type { AttachmentMime } from '../../src/protocol/constants';

/** How many leading bytes `sniffMime` needs. */
export const SNIFF_BYTES = 32;

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  text.split('').every((ch, i) => bytes[at + i] === ch.charCodeAt(0));

/**
 * The attachment type a file really is, from its first bytes (never its name or the client's word),
 * or null when it is none of the accepted types of spec §5.
 */
export function sniffMime(bytes: Uint8Array): AttachmentMime | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes[0] === 0x89 && ascii(bytes, 1, 'PNG\r\n\x1a\n')) return 'image/png';
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) return 'image/gif';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return 'image/webp';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'AVI ')) return 'video/x-msvideo';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'video/webm';
  if (ascii(bytes, 0, 'OggS')) return 'video/ogg';
  if (ascii(bytes, 4, 'ftyp')) return ascii(bytes, 8, 'qt  ') ? 'video/quicktime' : 'video/mp4';
  if (ascii(bytes, 4, 'moov') || ascii(bytes, 4, 'mdat') || ascii(bytes, 4, 'wide')) return 'video/quicktime';
  return null;
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
