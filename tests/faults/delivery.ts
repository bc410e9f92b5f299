import type { Page } from 'playwright';
import { type Store, sql } from '../../server/db/store';
import { current } from '../support/tabs';

/** What a fault scenario checks at its end: which of the messages sent arrived, how often, in what order. */
export interface Delivery {
  /** Sent, never seen. */
  lost: number;
  /** Seen more than once (each extra copy counts). */
  duplicated: number;
  /** Seen exactly once each, in the order sent, and nothing else. */
  exactlyOnceInOrder: boolean;
}

export function delivery(sent: readonly string[], seen: readonly string[]): Delivery {
  const counts = new Map<string, number>();
  for (const text of seen) counts.set(text, (counts.get(text) ?? 0) + 1);
  const lost = sent.filter((text) => !counts.has(text)).length;
  const duplicated = [...counts.values()].reduce((extra, n) => extra + n - 1, 0);
  const mine = new Set(sent);
  const ordered = seen.filter((text) => mine.has(text));
  return {
    lost,
    duplicated,
    exactlyOnceInOrder: seen.length === sent.length && ordered.every((text, i) => text === sent[i]),
  };
}

/** The worst of several checks (the server's and every tab's): the most lost, the most duplicated. */
export function worst(all: readonly Delivery[]): Delivery {
  return {
    lost: Math.max(0, ...all.map((d) => d.lost)),
    duplicated: Math.max(0, ...all.map((d) => d.duplicated)),
    exactlyOnceInOrder: all.every((d) => d.exactlyOnceInOrder),
  };
}

/** The texts of a chat's text messages as the server holds them, in the order it stored them. */
export async function storedTexts(db: Store, conversationId: number): Promise<string[]> {
  const rows = await db.all<{ message: string }>(
    sql`SELECT message FROM messages WHERE conversation_id = ${conversationId} AND type = 'text' ORDER BY id`,
  );
  return rows.map((r) => r.message);
}

/**
 * What a tab can show of a chat: its engine loads older pages until there are none, then the whole loaded
 * history is read, with any pending send of the outbox (which the chat shows as a pending row) after it.
 */
export async function shownTexts(page: Page, conversationId: number): Promise<string[]> {
  await page.evaluate(async (id) => {
    await window.engine.openConversation(id);
    while (await window.engine.loadOlderMessages(id));
  }, conversationId);
  const view = await current(page, 'messages', conversationId);
  const pending = (await current(page, 'outbox')).filter((e) => e.conversationId === conversationId);
  return [...view.messages.filter((m) => m.type !== 'system').map((m) => m.message), ...pending.map((e) => e.text)];
}
