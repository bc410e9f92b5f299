import type { Message } from '../../../protocol/entities';

/** Placeholder (actions helper): the action menu button of one message and its menu and delete dialog. */
export function MessageActions(_props: { message: Message }) {
  return null;
}
