/**
 * Issue 20: what the budget counts is what travels. After `vite build` (and after vite-plugin-pwa wrote the
 * service worker) every text file of the build gets a brotli (`.br`) and a gzip (`.gz`) copy beside it, at the
 * highest levels, once; the server sends them with @fastify/static's `preCompressed` (server/app.ts), so no
 * request pays for compressing a script. Source maps and Vite's own manifest (`.vite/`, never served) are
 * left alone: no visitor loads them, and the server compresses one on the fly should DevTools ask.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** The files that travel compressed: scripts, styles, the page, the web manifest and other text. */
export const PRECOMPRESSED = /\.(?:js|mjs|css|html|webmanifest|json|svg|txt|xml|ico)$/;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A file's two encodings, at the levels a build can afford: brotli 11 (text mode) and gzip 9. */
export async function compressBytes(bytes: Uint8Array): Promise<{ br: Buffer; gz: Buffer }> {
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }),
    gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gz };
}

/** The files of `dir` (relative paths, `/`-separated) that get compressed copies. */
export function precompressible(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => PRECOMPRESSED.test(file) && !file.startsWith('.vite/') && statSync(path.join(dir, file)).isFile());
}

/** Writes `<file>.br` and `<file>.gz` beside every text file of `dir`; returns the files it compressed. */
export async function precompressDir(dir: string): Promise<string[]> {
  const files = precompressible(dir);
  await Promise.all(
    files.map(async (file) => {
      const full = path.join(dir, file);
      const { br, gz } = await compressBytes(readFileSync(full));
      writeFileSync(`${full}.br`, br);
      writeFileSync(`${full}.gz`, gz);
    }),
  );
  return files;
}

/**
 * The Vite plugin: compresses the written build when it is complete. `closeBundle` with order 'post' runs
 * after vite-plugin-pwa's own (which writes `sw.js` and its Workbox runtime then); Workbox precaches by its
 * glob patterns, which no `.br` or `.gz` file matches.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'messenger-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await precompressDir(outDir);
      },
    },
  };
}
