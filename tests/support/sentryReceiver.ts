import { createServer } from 'node:http';
import { listenOnLoopback } from './loopback';

/** One event as an error-reporting service received it (the event item of an envelope). */
export interface ReceivedEvent {
  exception?: { values?: { type?: string; value?: string }[] };
  /** `react.componentStack`: the component stack of a render error (Sentry's React API). */
  contexts?: Record<string, Record<string, unknown> | undefined>;
  tags?: Record<string, string>;
  user?: Record<string, unknown>;
  release?: string;
  environment?: string;
}

/**
 * A stand-in for the error-reporting service on loopback: it takes Sentry envelopes
 * (`POST /api/{project}/envelope/`), keeps each body as sent and the events in them. A build points at it
 * with `VITE_SENTRY_DSN=receiver.dsn`.
 */
export async function sentryReceiver(): Promise<{
  dsn: string;
  bodies: string[];
  events: ReceivedEvent[];
  close(): Promise<void>;
}> {
  const bodies: string[] = [];
  const events: ReceivedEvent[] = [];
  const server = createServer((request, response) => {
    // Sent by the tab and by the engine's worker, both of another origin than this one.
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Access-Control-Allow-Headers', '*');
    if (request.method !== 'POST') {
      response.end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      // An envelope: a header line, then an item header line and its payload, for each item.
      const lines = body.split('\n');
      for (let i = 1; i + 1 < lines.length; i += 2) {
        try {
          const header = JSON.parse(lines[i] ?? '') as { type?: string };
          if (header.type === 'event') events.push(JSON.parse(lines[i + 1] ?? '') as ReceivedEvent);
        } catch {
          // Not an item this receiver reads (a session, say).
        }
      }
      response.setHeader('Content-Type', 'application/json');
      response.end('{}');
    });
  });
  const port = await listenOnLoopback(server);
  return {
    dsn: `http://publickey@127.0.0.1:${port}/1`,
    bodies,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
