/** Spec §9: image attachments show with their longer side at most 300 px; stickers 120 px, at most 150. */
export const MEDIA_MAX_SIDE = 300;
export const STICKER_DEFAULT = 120;
export const STICKER_MAX = 150;

/** The display box of a picture of known dimensions, scaled down (never up) to fit `max` on its longer side. */
export function fitBox(
  dimensions: { width: number; height: number } | undefined,
  max: number,
): { width: number; height: number } | null {
  if (!dimensions || dimensions.width <= 0 || dimensions.height <= 0) return null;
  const scale = Math.min(1, max / Math.max(dimensions.width, dimensions.height));
  return { width: Math.round(dimensions.width * scale), height: Math.round(dimensions.height * scale) };
}

/** A sticker's side: its own size when given, within 150 px; 120 px otherwise. */
export function stickerSide(dimensions: { width: number; height: number } | undefined): number {
  const side = dimensions ? Math.max(dimensions.width, dimensions.height) : 0;
  return side > 0 ? Math.min(STICKER_MAX, side) : STICKER_DEFAULT;
}
