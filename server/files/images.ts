import sharp, { type Sharp } from 'sharp';
import type { AttachmentMime } from '../../src/protocol/constants';
import { ApiError } from '../http/errors';

/**
 * The most pixels (all frames together) an uploaded image may decode to: a 48-megapixel phone photo
 * passes, a decompression bomb (a few kilobytes that decode to gigabytes) is refused before it is decoded.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/**
 * The box a thumbnail fits in: twice the 300-pixel side a chat shows a picture at (spec §9), for dense
 * screens; avatars and logos are shown smaller.
 */
export const THUMBNAIL_SIDE = { attachment: 640, avatar: 320 } as const;

/** WebP quality of thumbnails, and of an original that has to be re-encoded (high: it is the full picture). */
const THUMBNAIL_QUALITY = 70;
const ORIGINAL_QUALITY = 90;

const FORMATS: Partial<Record<AttachmentMime, string>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

export const imageUnreadable = () =>
  new ApiError(415, 'The image could not be read: it is damaged or cut short.', null, 'image_unreadable');
export const imageTooLarge = () =>
  new ApiError(413, 'The image has too many pixels. Please select a smaller image.', null, 'image_too_large');

export interface ProcessedImage {
  /** The original to store, its metadata gone; null when the uploaded bytes are kept as they are. */
  original: Buffer | null;
  /** The WebP thumbnail. */
  thumbnail: Buffer;
}

function open(bytes: Buffer, animated: boolean): Sharp {
  // failOn 'truncated': a cut-short picture is refused, a harmless decoder warning (extra bytes) is not.
  return sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated', animated });
}

/**
 * Reads an uploaded image with sharp and makes what is stored (docs/server.md "Uploads"): the original
 * without its EXIF (location, camera), XMP, IPTC and ICC data, turned upright by its EXIF orientation
 * first and kept in its format; and a WebP thumbnail inside `side`×`side`. An animated GIF or WebP keeps
 * its frames in both. A GIF's bytes are kept as they are: the format has no EXIF, and re-encoding it
 * would quantize its palette again; an animated PNG's too, as sharp would keep only its first frame. A picture sharp cannot read, or whose decoded type is not the one
 * its first bytes named, is refused (415, `image_unreadable`); one over MAX_IMAGE_PIXELS too (413,
 * `image_too_large`).
 */
export async function processImage(bytes: Buffer, mime: AttachmentMime, side: number): Promise<ProcessedImage> {
  const format = FORMATS[mime];
  if (!format) throw imageUnreadable();
  let pages: number;
  try {
    const meta = await open(bytes, false).metadata();
    if (meta.format !== format || !meta.width || !meta.height) throw imageUnreadable();
    pages = meta.pages ?? 1;
    if (meta.width * meta.height * pages > MAX_IMAGE_PIXELS) throw imageTooLarge();
  } catch (error) {
    throw refusal(error);
  }
  const animated = pages > 1 && (mime === 'image/gif' || mime === 'image/webp');
  try {
    // rotate() without an angle applies the EXIF orientation; output without withMetadata carries none.
    const thumbnail = await open(bytes, animated)
      .rotate()
      .resize(side, side, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: THUMBNAIL_QUALITY })
      .toBuffer();
    const original = await reencode(bytes, mime, animated);
    return { original, thumbnail };
  } catch (error) {
    throw refusal(error);
  }
}

async function reencode(bytes: Buffer, mime: AttachmentMime, animated: boolean): Promise<Buffer | null> {
  const image = open(bytes, animated).rotate();
  switch (mime) {
    case 'image/jpeg':
      return image.jpeg({ quality: ORIGINAL_QUALITY }).toBuffer();
    case 'image/png':
      // An animated PNG keeps its bytes, as a GIF does: sharp would keep only its first frame.
      return isAnimatedPng(bytes) ? null : image.png().toBuffer();
    case 'image/webp':
      return image.webp({ quality: ORIGINAL_QUALITY }).toBuffer();
    default:
      return null;
  }
}

/** An APNG names its animation (`acTL`) before its first image data (`IDAT`). */
function isAnimatedPng(bytes: Buffer): boolean {
  const control = bytes.indexOf('acTL', 8, 'latin1');
  const data = bytes.indexOf('IDAT', 8, 'latin1');
  return control > 0 && (data < 0 || control < data);
}

function refusal(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const message = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(message)) return imageTooLarge();
  // Whatever else sharp says about untrusted bytes (a corrupt header, a truncated stream) is the file's fault.
  return imageUnreadable();
}
