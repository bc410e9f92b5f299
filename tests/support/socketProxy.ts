import { connect, createServer, type Socket } from 'node:net';
import { listenOnLoopback } from './loopback';

/**
 * A TCP proxy on loopback in front of a local server, for tests of what the client does when its
 * websocket goes away: tabs load the app through it, so the engine's socket and its REST calls cross it.
 * A connection whose first bytes are a `GET /ws` upgrade is a websocket; the proxy counts those, can cut
 * them, and can hold them off (each new one is dropped at once, as a refused connection would be).
 * The target is looked up per connection, so a server restarted on the same port is reached again.
 */
export interface SocketProxy {
  url: string;
  port: number;
  /** Websocket connections open through the proxy now. */
  readonly websocketCount: number;
  /** Drops every open websocket connection. */
  cutWebsockets(): void;
  /** While held, open websockets are cut and new ones are dropped; released, they pass again. */
  holdWebsockets(held: boolean): void;
  /**
   * Half-opens every websocket open now: from now on nothing crosses them either way, and neither end is
   * closed (as a dead NAT or a sleeping laptop's link would leave them). Returns how many it stalled now.
   */
  stallWebsockets(): number;
  /** Websocket connections made through the proxy so far. */
  readonly websocketsOpened: number;
  close(): Promise<void>;
}

const isUpgradeToWs = (chunk: Buffer): boolean => chunk.subarray(0, 8).toString('latin1') === 'GET /ws?';

export async function socketProxy(targetPort: number): Promise<SocketProxy> {
  const all = new Set<Socket>();
  const websockets = new Set<Socket>();
  const stalled = new Set<Socket>();
  let held = false;
  let opened = 0;

  const server = createServer((client) => {
    all.add(client);
    let upstream: Socket | null = null;
    const end = () => {
      client.destroy();
      upstream?.destroy();
      all.delete(client);
      websockets.delete(client);
      stalled.delete(client);
    };
    client.on('error', end).on('close', end);
    client.once('data', (first: Buffer) => {
      if (isUpgradeToWs(first)) {
        if (held) {
          end();
          return;
        }
        websockets.add(client);
        opened += 1;
      }
      const target = connect(targetPort, '127.0.0.1');
      upstream = target;
      // A stalled websocket stays open on the client's side whatever the server does: a half-open link.
      const upstreamGone = () => {
        if (stalled.has(client)) target.destroy();
        else end();
      };
      target.on('error', upstreamGone).on('close', upstreamGone);
      target.on('data', (chunk) => {
        if (!stalled.has(client)) client.write(chunk);
      });
      target.write(first);
      client.on('data', (chunk: Buffer) => {
        if (!stalled.has(client)) target.write(chunk);
      });
    });
  });
  const port = await listenOnLoopback(server);

  const cut = () => {
    for (const socket of [...websockets]) socket.destroy();
    websockets.clear();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get websocketCount() {
      return websockets.size;
    },
    get websocketsOpened() {
      return opened;
    },
    stallWebsockets() {
      const fresh = [...websockets].filter((socket) => !stalled.has(socket));
      for (const socket of fresh) stalled.add(socket);
      return fresh.length;
    },
    cutWebsockets: cut,
    holdWebsockets(on: boolean) {
      held = on;
      if (on) cut();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of all) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
