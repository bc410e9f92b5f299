/**
 * Where an image's thumbnail is (docs/server.md "Uploads"): beside the original, named after it, so no
 * column holds it and it is exactly as secret as the original's random name.
 */
const IMAGE_NAME = /^([a-f0-9]{32})\.(jpg|png|gif|webp)$/;
const THUMBNAIL_NAME = /^([a-f0-9]{32})\.thumb\.webp$/;

/** The extensions an image's original may have; a thumbnail's original is one of these names. */
export const IMAGE_EXTENSIONS = ['jpg', 'png', 'gif', 'webp'] as const;

/** The storage key of the thumbnail of the stored image `name`, or null when `name` is no image. */
export function thumbnailName(name: string): string | null {
  const match = IMAGE_NAME.exec(name);
  return match ? `${match[1]}.thumb.webp` : null;
}

/** The names the original of thumbnail `name` may have, or null when `name` is no thumbnail's. */
export function originalCandidates(name: string): string[] | null {
  const match = THUMBNAIL_NAME.exec(name);
  return match ? IMAGE_EXTENSIONS.map((ext) => `${match[1]}.${ext}`) : null;
}
