// The embedded API server as a child process for the crash test. Plain Node
// (no Jest, no TypeScript): `#kube-server` resolves through package.json
// "imports" to the compiled dist/libs/kube-server/src/index.js, which
// `npm ci` (prepare → build) or the test's ensureBuilt() produces.
// Usage: node test/crash/server-child.mjs <state-dir>
// Prints one line `READY {"url":...,"kubeconfigPath":...}` once it serves.
import { startServer } from '#kube-server';

const stateDir = process.argv[2];
if (!stateDir) {
  process.stderr.write('usage: server-child.mjs <state-dir>\n');
  process.exit(2);
}
const srv = await startServer({ port: 0, stateDir });
process.stdout.write(`READY ${JSON.stringify({ url: srv.url, kubeconfigPath: srv.kubeconfigPath })}\n`);
const shutdown = async () => {
  await srv.stop();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
