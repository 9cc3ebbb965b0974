/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Backend (Python on Ray): HTTP API on :8000, websocket push on :8001.
const API_TARGET = 'http://127.0.0.1:8000';
const WS_TARGET = 'ws://127.0.0.1:8001';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // `@/…` → `src/…`, taken from tsconfig.json "paths".
    tsconfigPaths: true,
  },
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/ws': { target: WS_TARGET, ws: true, changeOrigin: true },
      // walletMiddle: its own Serve application on the API's host (spec §7).
      '/walletMiddle': { target: API_TARGET, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // The one chunk over 500 kB is ECharts (187 kB gzipped), loaded only by chart pages; the home
    // page's budget is checked by `npm run size:home`.
    chunkSizeWarningLimit: 600,
  },
  test: {
    environment: 'node',
    include: ['src/**/__tests__/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
