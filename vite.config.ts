import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const API_TARGET = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  define: {
    // The product name is part of the build (loading text, titles); npm start rebuilds when it changes.
    'import.meta.env.VITE_APP_NAME': JSON.stringify(process.env.APP_NAME?.trim() || 'Cometa'),
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/_dev': { target: API_TARGET, changeOrigin: false },
    },
  },
  build: { sourcemap: false },
});
