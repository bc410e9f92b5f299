/** The part of a BroadcastChannel the fallback uses; tests may pass their own. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

export type OpenChannel = (name: string) => ChannelLike;

export const openBroadcastChannel: OpenChannel = (name) => new BroadcastChannel(name);

/** Posts, and reports a message that cannot be cloned instead of throwing into the caller. */
export function post(channel: ChannelLike, message: unknown, onCloneError: (error: unknown) => void): void {
  try {
    channel.postMessage(message);
  } catch (error) {
    onCloneError(error);
  }
}
