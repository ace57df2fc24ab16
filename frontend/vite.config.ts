import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Django serves the built index.html for the SPA routes and the assets under /static/.
export default defineConfig({
  base: '/static/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8000',
      '/ws': { target: 'ws://127.0.0.1:8000', ws: true },
      '/login': 'http://127.0.0.1:8000',
      '/help': 'http://127.0.0.1:8000',
    },
  },
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
});
