import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Issue 20: the API's answers (JSON, and the error envelope) travel compressed above COMPRESS_THRESHOLD_BYTES,
 * brotli when the client accepts it, else gzip, with `Vary: accept-encoding` (@fastify/compress, which only
 * compresses types that compress: JSON and text, never images or video). Registered before any route, as the
 * plugin hooks each route as it is added. Not compressed:
 * - the client's files: the build carries its own `.br` and `.gz` copies (scripts/precompress.ts), which
 *   @fastify/static sends with `Content-Encoding` set, and the plugin leaves an answer that has one alone;
 * - uploaded files (`/files/`): pictures and videos are compressed already, and their answer keeps its
 *   Content-Length;
 * - the websocket: its upgrade never reaches Fastify's routes (server/realtime/hub.ts).
 * Request bodies are not decompressed: the API takes them as sent, under the body limit as sent.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/files/')) route.compress = false;
  });
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
  });
}
