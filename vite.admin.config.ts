import react from '@vitejs/plugin-react';
import { precompressed } from './vite.precompressed.ts';
import { defineConfig } from 'vite';

/**
 * Builds the brand's inbox (src/admin) into dist/admin/, served under /admin.
 * A build of its own: the applicant's bundle never holds a byte of it.
 */
export default defineConfig({
  root: 'src/admin',
  base: '/admin/',
  publicDir: false,
  plugins: [react(), precompressed()],
  build: {
    outDir: '../../dist/admin',
    emptyOutDir: true,
    assetsDir: 'assets',
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
