import { QUICK_REACTIONS } from '../../../protocol/constants';

/** The 10 quick reactions of spec §9 with the key of their accessible name (chatActions.reactions.*). */
const NAMES: Record<(typeof QUICK_REACTIONS)[number], string> = {
  '👍': 'thumbsUp',
  '👎': 'thumbsDown',
  '🙏': 'prayingHands',
  '🙌': 'raisedHands',
  '😂': 'laughing',
  '🥰': 'lovingFace',
  '😮': 'surprised',
  '😢': 'crying',
  '🎉': 'party',
  '❤️': 'heart',
};

export const QUICK_REACTION_ITEMS = QUICK_REACTIONS.map((emoji) => ({ emoji, nameKey: NAMES[emoji] }));
