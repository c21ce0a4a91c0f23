import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The viewer app (src/ui) and its engine worker (src/worker/entry.ts).
export default defineConfig({
  root: 'src/ui',
  plugins: [react()],
  worker: { format: 'es' },
  build: { outDir: '../../dist', emptyOutDir: true, target: 'es2022' },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
});
