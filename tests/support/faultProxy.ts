import { createServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { listenOnLoopback } from './loopback';

/**
 * An HTTP proxy on loopback in front of a real server that fails the calls a test names, for the error
 * catalogue (spec §8): tabs load the app through it, so every REST call of the engine (in its shared
 * worker or a leader tab) crosses it, and the websocket passes through untouched. A call no rule names
 * goes to the server as it is.
 */
export type Fault =
  /** Answers with this status and the envelope of a refusal without a message: the client shows its fallback. */
  | { kind: 'refuse'; status: number }
  /** Answers with the server's envelope and this message, as the server would refuse. */
  | { kind: 'refuseWith'; status: number; message: string }
  /** Answers with this status and body, as a server that returns something the client does not expect. */
  | { kind: 'answer'; status: number; body: unknown }
  /** Cuts the connection without an answer: a network error. */
  | { kind: 'drop' }
  /**
   * Forwards the request, lets the server answer in full (it committed), then cuts the connection: the
   * client never learns the outcome. `afterHeaders`: the status line and headers reach it first. `times`:
   * the rule goes after cutting so many answers (a browser may resend a request whose connection was cut).
   */
  | { kind: 'loseAnswer'; afterHeaders?: boolean; times?: number };

export interface FaultRule {
  method: string;
  /** Matched against the path and query of the request. */
  path: RegExp;
  fault: Fault;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Fails every matching call from now on (until `clear`); rules added later win. */
  fail(method: string, path: RegExp, fault?: Fault): void;
  clear(): void;
  /** The calls that were failed, as "METHOD path". */
  readonly failed: readonly string[];
  close(): Promise<void>;
}

export async function faultProxy(targetPort: number): Promise<FaultProxy> {
  let rules: FaultRule[] = [];
  const failed: string[] = [];
  const cutsLeft = new Map<FaultRule, number>();
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const rule = [...rules].reverse().find((r) => r.method === req.method && r.path.test(url));
    if (rule?.fault.kind === 'loseAnswer') {
      const { afterHeaders, times } = rule.fault;
      const left = (cutsLeft.get(rule) ?? times ?? Infinity) - 1;
      cutsLeft.set(rule, left);
      if (left <= 0) rules = rules.filter((r) => r !== rule);
      const upstream = httpRequest(
        { host: '127.0.0.1', port: targetPort, method: req.method, path: url, headers: req.headers },
        (answer) => {
          answer.resume();
          answer.on('end', () => {
            failed.push(`${req.method} ${url}`);
            if (afterHeaders) {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.flushHeaders();
            }
            // A moment later, so headers written go out before the cut.
            setImmediate(() => req.socket.destroy());
          });
        },
      );
      upstream.on('error', () => req.socket.destroy());
      req.pipe(upstream);
      return;
    }
    if (rule) {
      failed.push(`${req.method} ${url}`);
      // The body is read first, so the browser sees an answer rather than a reset while it still sends.
      req.resume();
      req.on('end', () => {
        const fault = rule.fault;
        if (fault.kind === 'drop' || fault.kind === 'loseAnswer') {
          req.socket.destroy();
          return;
        }
        const body =
          fault.kind === 'answer'
            ? fault.body
            : fault.kind === 'refuse'
            ? { success: false, status: fault.status }
            : { success: false, status: fault.status, message: fault.message };
        res.writeHead(fault.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
      return;
    }
    const upstream = httpRequest(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // The websocket: the upgrade request and everything after it, byte for byte.
  server.on('upgrade', (req, client: Socket, head: Buffer) => {
    const target = connect(targetPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      target.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    const end = () => {
      client.destroy();
      target.destroy();
    };
    target.on('error', end).on('close', end);
    client.on('error', end).on('close', end);
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    fail(method, path, fault = { kind: 'refuse', status: 500 }) {
      rules.push({ method, path, fault });
    },
    clear() {
      rules = [];
    },
    failed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
