import { connect, createServer, type Socket } from 'node:net';
import { listenOnLoopback } from './loopback';

export interface TcpProxyOptions {
  /** Every chunk waits this long in each direction (a round trip of twice that); order is kept. */
  oneWayMs?: number;
  /** What clients send is read at most this fast (an upload's progress shows step by step). */
  uploadBytesPerSecond?: number;
}

export interface TcpProxy {
  port: number;
  url: string;
  /** The server is "down": open connections are cut and new ones refused, on the same port. */
  stop(): Promise<void>;
  /** The server is back on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback in front of a local server: pages, API calls and the websocket all go through it.
 * It can add latency (a link like a user's to a real server), throttle uploads, and play a server that is
 * down and back without the server itself stopping.
 */
export async function tcpProxy(targetPort: number, { oneWayMs = 0, uploadBytesPerSecond }: TcpProxyOptions = {}): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const later = (run: () => void) => (oneWayMs > 0 ? setTimeout(run, oneWayMs) : run());
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', () => later(end));
    upstream.on('error', end).on('close', () => later(end));
    upstream.on('data', (chunk) => later(() => client.write(chunk)));
    // An end travels as late as the data before it.
    upstream.on('end', () => later(() => client.end()));
    client.on('end', () => later(() => upstream.end()));
    client.on('data', (chunk: Buffer) => {
      later(() => upstream.write(chunk));
      if (uploadBytesPerSecond === undefined) return;
      // Hold further reads for as long as this chunk takes at the given rate.
      client.pause();
      setTimeout(() => client.resume(), Math.ceil((chunk.length / uploadBytesPerSecond) * 1000));
    });
  });
  const port = await listenOnLoopback(server);
  const cutAll = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      cutAll();
      if (!server.listening) resolve();
      else server.close(() => resolve());
    });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    stop,
    start: () =>
      new Promise<void>((resolve, reject) => {
        if (server.listening) return resolve();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    close: stop,
  };
}
