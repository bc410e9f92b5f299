import { connect, createServer, type Socket } from 'node:net';
import { listenOnLoopback } from './loopback';

/**
 * A TCP proxy in front of a local server that reads what clients send at most `bytesPerSecond`: an
 * upload through it takes long enough for a browser to report its progress step by step. Answers and
 * websocket frames from the server pass at full speed.
 */
export async function throttledProxy(
  targetPort: number,
  bytesPerSecond: number,
): Promise<{ port: number; url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      // Hold further reads for as long as this chunk takes at the given rate.
      client.pause();
      setTimeout(() => client.resume(), Math.ceil((chunk.length / bytesPerSecond) * 1000));
    });
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
