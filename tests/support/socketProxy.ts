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
  close(): Promise<void>;
}

const isUpgradeToWs = (chunk: Buffer): boolean => chunk.subarray(0, 8).toString('latin1') === 'GET /ws?';

export async function socketProxy(targetPort: number): Promise<SocketProxy> {
  const all = new Set<Socket>();
  const websockets = new Set<Socket>();
  let held = false;

  const server = createServer((client) => {
    all.add(client);
    let upstream: Socket | null = null;
    const end = () => {
      client.destroy();
      upstream?.destroy();
      all.delete(client);
      websockets.delete(client);
    };
    client.on('error', end).on('close', end);
    client.once('data', (first: Buffer) => {
      if (isUpgradeToWs(first)) {
        if (held) {
          end();
          return;
        }
        websockets.add(client);
      }
      const target = connect(targetPort, '127.0.0.1');
      upstream = target;
      target.on('error', end).on('close', end);
      target.on('data', (chunk) => client.write(chunk));
      target.write(first);
      client.on('data', (chunk: Buffer) => target.write(chunk));
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
