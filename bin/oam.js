#!/usr/bin/env node
// The `oam` command: a thin shim over the compiled CLI (built by `npm install` via `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/apps/cli/src/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('oam: the project is not built yet; run `npm install` (or `npm run build`) first.\n');
  process.exit(1);
}
await import(entry.href);
