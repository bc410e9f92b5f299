/**
 * Sends to one chat from this node take turns before they open their transaction (issue 21). A send holds
 * the chat's row lock from before its message gets an id until it commits (lockConversation), so sends to one
 * chat go one at a time anyway; without turns, each waiting send would wait inside a transaction, holding one
 * of the node's few database connections, and a busy chat could take them all while every other request
 * (sign-ins, reads, other chats) waited for one. With turns, a chat holds at most one connection per node.
 */
export class ChatTurns {
  private readonly tails = new Map<number, Promise<void>>();

  /** Runs `fn` after the sends to `conversationId` that came before it on this node have ended (either way). */
  run<T>(conversationId: number, fn: () => Promise<T>): Promise<T> {
    const before = this.tails.get(conversationId) ?? Promise.resolve();
    const result = before.then(fn);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(conversationId, tail);
    // The last in line forgets the chat, so the map holds only chats with a send under way.
    void tail.then(() => {
      if (this.tails.get(conversationId) === tail) this.tails.delete(conversationId);
    });
    return result;
  }

  /** Chats with a send under way or waiting (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
