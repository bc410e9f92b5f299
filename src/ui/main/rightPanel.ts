/**
 * The right panel of the main screen (spec §2 "Right panel views"): the open chat's settings, a member's
 * profile, or the add-member form. It is tab state, not part of the URL, and belongs to one conversation.
 */
export type RightPanelView = { kind: 'chatSettings' } | { kind: 'profile'; userId: number } | { kind: 'addMember' };

export interface RightPanelState {
  conversationId: number;
  view: RightPanelView;
}

/** The view shown for the open chat: none when the panel belongs to another chat or the chat list is not shown. */
export function shownPanel(panel: RightPanelState | null, openId: number | null, chatsShown: boolean): RightPanelView | null {
  return panel && chatsShown && panel.conversationId === openId ? panel.view : null;
}
