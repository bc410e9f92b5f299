import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run dev` finds the API server it proxies to (scripts/dev.ts starts one). */
const apiTarget = process.env.API_TARGET ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
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
