import { type ConversationListItem, fold } from '../../engine/api';

/** The filter tabs of spec §2: All and Unread always; Communities and Groups where communities are allowed. */
export type ChatFilter = 'all' | 'unread' | 'communities' | 'groups';

export function filtersFor(communities: boolean): ChatFilter[] {
  return communities ? ['all', 'unread', 'communities', 'groups'] : ['all', 'unread'];
}

function matchesFilter(item: ConversationListItem, filter: ChatFilter): boolean {
  const c = item.conversation;
  switch (filter) {
    case 'all':
      return true;
    case 'unread':
      return item.isUnread;
    case 'communities':
      return c.community_id !== null;
    case 'groups':
      return c.is_group && c.community_id === null;
  }
}

/**
 * The rows to show, in the engine's order: the filter, then a name search that folds case and accents as
 * message search does (issue 23), so "soder" finds "Södermalm Runners" in both lists alike.
 */
export function visibleConversations(
  list: readonly ConversationListItem[],
  filter: ChatFilter,
  query: string,
): readonly ConversationListItem[] {
  const needle = fold(query.trim());
  if (filter === 'all' && !needle) return list;
  return list.filter((item) => matchesFilter(item, filter) && (!needle || fold(item.conversation.name).includes(needle)));
}
