import type { Message } from '../../../protocol/entities';

/** Placeholder (actions helper): a message's reactions with counts, toggling and the user-list tooltip. */
export function ReactionBar(_props: { message: Message }) {
  return null;
}
