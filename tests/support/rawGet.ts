import { type IncomingHttpHeaders, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** An answer as it travelled: the bytes still encoded. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One GET of `route` on `base` with exactly these headers (fetch would add its own Accept-Encoding and decode). */
export function rawGet(base: string, route: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawRequest(base, route, 'GET', headers);
}

/** One request of `route` on `base` as it travels, body and all (a HEAD's is what the server sent: none). */
export function rawRequest(base: string, route: string, method: 'GET' | 'HEAD', headers: Record<string, string> = {}): Promise<RawAnswer> {
  const url = new URL(route, base);
  return new Promise((resolve, reject) => {
    const req = request({ method, host: url.hostname, port: url.port, path: url.pathname + url.search, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body of an answer decoded by its Content-Encoding (br, gzip or none). */
export function decodedBody(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  if (encoding === undefined) return answer.body;
  throw new Error(`unexpected Content-Encoding ${encoding}`);
}
