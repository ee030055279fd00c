import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Builds the applicant wizard (src/wizard) into dist/. The server inlines the
 * configuration into dist/index.html at request time (DESIGN §4), so the build
 * itself is configuration-free and one build serves every page.
 */
export default defineConfig({
  root: 'src/wizard',
  publicDir: '../../public',
  plugins: [react()],
  build: {
    outDir: '../../dist',
    emptyOutDir: true,
    assetsDir: 'assets',
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
