/* global performance */
// Measures the CUE v0.14 module on this machine: load time, per-render medians (templates
// compiled once), and RSS over many renders (the leak check). A script, not a test: timings
// depend on the machine. Run: node libs/renderer/cue-wasm/measure.mjs [renders]
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { parse } from 'yaml';
import { loadCue } from '../src/engines/cue/v14/wasm-runtime.mjs';

const renders = Number(process.argv[2] ?? 2000);
const definitions = new URL('../../../definitions/', import.meta.url);
const template = (name) =>
  parse(readFileSync(new URL(`${name}.yaml`, definitions), 'utf8')).spec.schematic.cue.template;
const context = {
  name: 'api',
  appName: 'shop',
  namespace: 'default',
  appRevision: 'shop-v1',
  appRevisionNum: 1,
  appLabels: {},
  appAnnotations: {},
  appComponents: ['api'],
  components: [],
  componentType: 'webservice',
  revision: 'api-v1',
  cluster: 'local',
  clusterVersion: { major: 1, minor: 37, gitVersion: 'v1.37.2', platform: 'linux/amd64' },
  publishVersion: '',
  workflowName: 'shop',
};
const mb = (n) => `${(n / 1024 / 1024).toFixed(0)} MB`;

const t0 = performance.now();
const cue = await loadCue();
const loadMs = performance.now() - t0;
console.log(`load: ${loadMs.toFixed(0)} ms (gunzip + instantiate + start: ${cue.loadMs.toFixed(0)} ms)`);
console.log(`version: ${JSON.stringify(cue.version())}; RSS after load ${mb(process.memoryUsage().rss)}`);

const webservice = template('components/webservice');
const properties = {
  image: 'nginx:1.27',
  ports: [{ port: 80, expose: true }],
  cpu: '0.5',
  env: [{ name: 'A', value: 'b' }],
};
const c0 = performance.now();
const ws = cue.compile(webservice);
console.log(`compile webservice: ${(performance.now() - c0).toFixed(1)} ms`);
const c1 = performance.now();
cue.compile(`${webservice}\n_measure: 1\n`);
console.log(`compile webservice again (another source): ${(performance.now() - c1).toFixed(1)} ms`);
const f0 = performance.now();
const workload = cue.render(ws, properties, context).output;
console.log(`first render of webservice: ${(performance.now() - f0).toFixed(1)} ms`);

/** Median and p90 of `n` timed calls of `fn`, after a few warm-up calls. */
function time(n, fn) {
  for (let i = 0; i < 5; i++) fn(i);
  const samples = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    fn(i);
    samples.push(performance.now() - s);
  }
  samples.sort((a, b) => a - b);
  return `median ${samples[Math.floor(n / 2)].toFixed(2)} ms, p90 ${samples[Math.floor(n * 0.9)].toFixed(2)} ms`;
}

console.log(`render webservice: ${time(200, () => cue.render(ws, properties, context))}`);
const traits = {
  scaler: { replicas: 3 },
  hpa: { min: 1, max: 5, cpu: { value: 70 } },
  gateway: { domain: 'shop.example.com', http: { '/': 80 } },
  env: { env: { LOG_LEVEL: 'debug' } },
  storage: { pvc: [{ name: 'data', mountPath: '/data' }] },
};
for (const [name, props] of Object.entries(traits)) {
  const h = cue.compile(template(`traits/${name}`));
  const ctx = { ...context, output: workload, outputs: {} };
  console.log(`render ${name}: ${time(200, () => cue.render(h, props, ctx))}`);
}
console.log(`vet webservice: ${time(200, () => cue.vet(ws, properties))}`);

// Through a worker thread, as the renderer runs it: start-up to ready, then round trips.
const w0 = performance.now();
const worker = new Worker(new URL('../src/engines/cue/v14/cue14.worker.mjs', import.meta.url));
const replies = new Map();
let ready;
const started = new Promise((resolve) => (ready = resolve));
worker.on('message', (msg) => (msg.type === 'ready' ? ready() : replies.get(msg.id)?.(msg)));
await started;
console.log(`worker start to ready: ${(performance.now() - w0).toFixed(0)} ms`);
let id = 0;
const ask = (task) =>
  new Promise((resolve) => {
    const n = ++id;
    replies.set(n, resolve);
    worker.postMessage({ id: n, task });
  });
const task = { op: 'render', source: webservice, parameter: properties, context };
const first = performance.now();
await ask(task);
console.log(
  `worker: first webservice render (compile included): ${(performance.now() - first).toFixed(0)} ms`,
);
const trips = [];
for (let i = 0; i < 200; i++) {
  const s = performance.now();
  await ask(task);
  trips.push(performance.now() - s);
}
trips.sort((a, b) => a - b);
console.log(
  `worker: webservice render round trip median ${trips[100].toFixed(2)} ms, p90 ${trips[180].toFixed(2)} ms`,
);
await worker.terminate();

const r0 = process.memoryUsage().rss;
const m0 = performance.now();
for (let i = 0; i < renders; i++)
  cue.render(ws, { ...properties, image: `nginx:${i}` }, { ...context, name: `api-${i}` });
const r1 = process.memoryUsage().rss;
console.log(
  `${renders} renders of webservice (distinct properties): ${((performance.now() - m0) / 1000).toFixed(1)} s; RSS ${mb(r0)} → ${mb(r1)}`,
);
process.exit(0);
