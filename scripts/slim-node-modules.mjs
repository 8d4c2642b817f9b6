// Removes from an installed node_modules what nothing loads at run time: type declarations,
// source maps, and better-sqlite3's build tree (sources, object files, static library,
// test extension) beside the one binding it loads. Used by the Dockerfile after
// `npm prune --omit=dev`; prints what it freed.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2] ?? 'node_modules';
let freed = 0;
const remove = (path) => {
  freed += size(path);
  rmSync(path, { recursive: true, force: true });
};
function size(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + size(join(path, name)), 0);
}

function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (/\.(d\.ts|d\.mts|d\.cts|map)$/.test(entry.name)) remove(path);
  }
}
walk(root);

const sqlite = join(root, 'better-sqlite3');
for (const name of ['deps', 'src']) remove(join(sqlite, name));
const release = join(sqlite, 'build', 'Release');
for (const name of readdirSync(release)) if (name !== 'better_sqlite3.node') remove(join(release, name));
for (const name of readdirSync(join(sqlite, 'build')))
  if (name !== 'Release') remove(join(sqlite, 'build', name));

console.log(`slim-node-modules: freed ${(freed / 1e6).toFixed(1)} MB`);
