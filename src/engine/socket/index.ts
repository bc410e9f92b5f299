/** The engine's websocket (spec §4): a connection state machine behind a swappable socket factory. */
export {
  RECONNECT_JITTER_MS,
  SocketConnection,
  type SocketConnectionOptions,
  type SocketDelivery,
  type SocketLogger,
} from './connection';
export { type ParsedFrame, type ParseResult, parseFrame } from './parseFrame';
export { globalSocketFactory, type SocketFactory, type SocketLike } from './socketLike';
export { buildSocketUrl, type SocketParams, sentEventId } from './socketUrl';
