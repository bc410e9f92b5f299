import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run dev` finds the API server it proxies to (scripts/dev.ts starts one). */
const apiTarget = process.env.API_TARGET ?? 'http://localhost:8080';

/**
 * This build's stamp (src/worker/build.ts): engines of different builds never run side by side (issue 14).
 * MESSENGER_BUILD_ID and MESSENGER_BUILD_TIME (ms) set it by hand, for tests that deploy two builds.
 */
const buildTime = Number(process.env.MESSENGER_BUILD_TIME ?? Date.now());
const build = { id: process.env.MESSENGER_BUILD_ID ?? buildTime.toString(36), time: buildTime };

export default defineConfig({
  plugins: [react()],
  define: { __MESSENGER_BUILD__: JSON.stringify(build) },
  build: { outDir: 'dist', sourcemap: true },
  server: {
    proxy: {
      '/v1': apiTarget,
      '/v2': apiTarget,
      '/files': apiTarget,
      '/ws': { target: apiTarget.replace(/^http/, 'ws'), ws: true },
    },
  },
});
