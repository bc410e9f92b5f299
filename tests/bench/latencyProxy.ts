import { connect, createServer, type Socket } from 'node:net';
import { listenOnLoopback } from '../support/loopback';

/**
 * A TCP proxy in front of a local server that holds every chunk `oneWayMs` in each direction: a link with a
 * round trip of twice that, as between a user and a real server. Order is kept (every chunk waits the same);
 * bandwidth is not limited. Pages, API calls and the websocket all go through it.
 */
export async function latencyProxy(targetPort: number, oneWayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    const delayed = (from: Socket, to: Socket) => {
      from.on('data', (chunk) => setTimeout(() => to.write(chunk), oneWayMs));
      // An end travels as late as the data before it.
      from.on('end', () => setTimeout(() => to.end(), oneWayMs));
    };
    client.on('error', end).on('close', () => setTimeout(end, oneWayMs));
    upstream.on('error', end).on('close', () => setTimeout(end, oneWayMs));
    delayed(client, upstream);
    delayed(upstream, client);
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
