import { defineConfig } from 'vite';

// Built by `npm run build` (`vite build apps/web`) into dist/web, which apps/api serves at /ui/.
// No @vitejs/plugin-react: Vite compiles TSX itself (oxc) with React's automatic JSX runtime.
export default defineConfig({
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2048,
    rolldownOptions: {
      // react-jsonschema-form marks modules 'use client' (for React Server Components); meaningless in a bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  logLevel: 'warn',
});
