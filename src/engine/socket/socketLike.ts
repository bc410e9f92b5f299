/**
 * The part of a websocket the engine uses: the subset of the browser `WebSocket` that the `ws` package's
 * `WebSocket` also has, so the worker passes the browser's and Node tests pass `ws`'s, unchanged.
 */

/**
 * A handler type checked bivariantly (the method-shorthand trick): the browser types its handlers as
 * `(this: WebSocket, ev: MessageEvent) => any` and `ws` as `(event: WebSocket.MessageEvent) => void`;
 * both accept the narrower event this interface promises, and neither would be assignable under the
 * strict contravariant check of a plain function-typed property.
 */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

export interface SocketLike {
  send(data: string): void;
  close(): void;
  onopen: Handler<unknown> | null;
  /** `data` is a string for text frames in both implementations; anything else is refused by the parser. */
  onmessage: Handler<{ data: unknown }> | null;
  onclose: Handler<unknown> | null;
  onerror: Handler<unknown> | null;
}

/** Opens a socket to `url`. May throw (a malformed URL, no WebSocket here): that counts as a failed connect. */
export type SocketFactory = (url: string) => SocketLike;

/** The runtime's own WebSocket (browser, worker, Node 22+); Node 20 tests pass `ws`'s instead. */
export const globalSocketFactory: SocketFactory = (url) => {
  const Ctor = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
  if (!Ctor) throw new Error('this runtime has no WebSocket; pass a SocketFactory');
  return new Ctor(url);
};
