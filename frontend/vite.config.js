import { copyFileSync, mkdirSync } from 'node:fs';
import { defineConfig } from 'vite';

/** Swagger UI for /docs from our own files (npm's swagger-ui-dist, pinned by the lock), never a CDN. */
const SWAGGER = ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE'];
const swaggerUI = {
  name: 'gradtrace-swagger-ui',
  writeBundle() {
    mkdirSync('dist/swagger', { recursive: true });
    for (const f of SWAGGER) copyFileSync(`node_modules/swagger-ui-dist/${f}`, `dist/swagger/${f}`);
  },
};

// base './': the built page works under any path (the server mounts frontend/dist at /).
export default defineConfig({
  base: './',
  plugins: [swaggerUI],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800, // CodeMirror + dagre
    rollupOptions: {
      // / and the compact /embed page, the help page, and /embed.js: the course pages' script (a stable name;
      // everything it loads is content-hashed under assets/)
      input: { main: 'index.html', embed: 'embed.html', help: 'help.html', widget: 'src/widget/index.js' },
      output: { entryFileNames: (chunk) => (chunk.name === 'widget' ? 'embed.js' : 'assets/[name]-[hash].js') },
    },
  },
  // `npm run dev` talks to a local server (`python -m server --port 8000`).
  server: { proxy: { '/api': 'http://127.0.0.1:8000', '/healthz': 'http://127.0.0.1:8000' } },
  test: { environment: 'node', include: ['test/**/*.test.js'] },
});
