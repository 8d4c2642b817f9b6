import { jest } from '@jest/globals';
import { FakeClock } from '#kube-core';
import { WorkerCrashError, WorkerTaskError, WorkerTimeoutError } from '../../worker-pool.js';
import { renderContext } from '../testdata/fixtures.js';
import { createCue14Pool, type Cue14Pool } from './cue14-pool.js';
import { builtin, builtinTemplate, ENV_MAP, NEVER_ENDS, STORAGE_STYLE } from './testdata/templates.js';
import { pruneContext } from './wasm-runtime.mjs';

/** A JSON document the assertions walk into (a schema, an OpenAPI document). */
interface Json {
  [key: string]: Json;
}

const WEBSERVICE = builtinTemplate('components/webservice');
const BUILTINS = [
  ...['cron-task', 'daemon', 'k8s-objects', 'statefulset', 'task', 'webservice', 'worker'].map(
    (c) => `components/${c}`,
  ),
  ...[
    'affinity',
    'annotations',
    'cpuscaler',
    'env',
    'expose',
    'gateway',
    'hpa',
    'labels',
    'resource',
    'scaler',
    'sidecar',
    'storage',
  ].map((t) => `traits/${t}`),
];

/** What the Go runtime in the workers wrote to their stdout/stderr (it must stay empty). */
let workerOutput = '';
let pool: Cue14Pool;
beforeAll(() => {
  pool = createCue14Pool({
    timeoutMs: 60000,
    size: 1,
    // Each worker's own stdout/stderr, captured here instead of piped to ours.
    workerOptions: { stdout: true, stderr: true },
    onWorker: (worker) => {
      worker.stdout.on('data', (d: Buffer) => (workerOutput += String(d)));
      worker.stderr.on('data', (d: Buffer) => (workerOutput += String(d)));
    },
  });
});
afterAll(() => pool.close());

async function rejection(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

describe('CUE v0.14 module', () => {
  it('embeds cuelang.org/go v0.14.1, built with the pinned Go', async () => {
    const version = await pool.version();
    expect(version.cue).toBe('v0.14.1');
    expect(version.go).toMatch(/^go1\.26\./);
  });

  it("renders this repo's webservice: Deployment output, Service in outputs", async () => {
    const result = await pool.render(
      WEBSERVICE,
      { image: 'nginx:1.27', ports: [{ port: 80, expose: true }, { port: 9090 }] },
      renderContext(),
    );
    expect(result.output).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      spec: {
        selector: { matchLabels: { 'app.oam.dev/component': 'api' } },
        template: {
          spec: {
            containers: [
              {
                name: 'api',
                image: 'nginx:1.27',
                ports: [
                  { containerPort: 80, protocol: 'TCP', name: 'port-80' },
                  { containerPort: 9090, protocol: 'TCP', name: 'port-9090' },
                ],
              },
            ],
          },
        },
      },
    });
    expect(Object.keys(result.outputs)).toEqual(['webserviceExpose']);
    expect(result.outputs.webserviceExpose).toMatchObject({
      apiVersion: 'v1',
      kind: 'Service',
      spec: { ports: [{ port: 80, targetPort: 80 }] },
    });
    expect(result.patch).toBeUndefined();
    expect(result.errs ?? []).toEqual([]);
  });

  it('renders trait patches against the rendered workload in context.output', async () => {
    const workload = (await pool.render(WEBSERVICE, { image: 'nginx' }, renderContext())).output!;
    const scaler = await pool.render(
      builtinTemplate('traits/scaler'),
      { replicas: 3 },
      renderContext({ output: workload as never }),
    );
    expect(scaler.patch).toEqual({ spec: { replicas: 3 } });
    const env = await pool.render(
      builtinTemplate('traits/env'),
      { env: { LOG_LEVEL: 'debug' } },
      renderContext({ output: workload as never }),
    );
    expect(env.patch).toEqual({
      spec: {
        template: { spec: { containers: [{ name: 'api', env: [{ name: 'LOG_LEVEL', value: 'debug' }] }] } },
      },
    });
    expect(env.outputs).toEqual({});
  });

  it('renders every CUE built-in of this repo: each component, each trait on a webservice', async () => {
    const components: Record<string, unknown> = {
      webservice: { image: 'nginx', ports: [{ port: 80, expose: true }] },
      worker: { image: 'nginx' },
      task: { image: 'busybox' },
      'cron-task': { image: 'busybox', schedule: '* * * * *' },
      daemon: { image: 'nginx' },
      statefulset: { image: 'nginx' },
      'k8s-objects': { objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }] },
    };
    const kinds: Record<string, string | undefined> = {};
    for (const [name, properties] of Object.entries(components)) {
      kinds[name] = (await pool.render(builtinTemplate(`components/${name}`), properties, renderContext()))
        .output?.kind as string;
    }
    expect(kinds).toEqual({
      webservice: 'Deployment',
      worker: 'Deployment',
      task: 'Job',
      'cron-task': 'CronJob',
      daemon: 'DaemonSet',
      statefulset: 'StatefulSet',
      'k8s-objects': 'ConfigMap',
    });
    const workload = await pool.render(WEBSERVICE, components.webservice, renderContext());
    const context = renderContext({ output: workload.output as never, outputs: workload.outputs as never });
    const traits: Record<string, unknown> = {
      scaler: { replicas: 2 },
      hpa: {},
      cpuscaler: {},
      gateway: { domain: 'shop.example.com', http: { '/': 80 } },
      env: { env: { A: 'b' } },
      sidecar: { name: 'log', image: 'busybox' },
      resource: { cpu: 1 },
      storage: { pvc: [{ name: 'data', mountPath: '/data' }] },
      affinity: {},
      annotations: { team: 'shop' },
    };
    const produced: Record<string, string[]> = {};
    for (const [name, properties] of Object.entries(traits)) {
      const result = await pool.render(builtinTemplate(`traits/${name}`), properties, context);
      produced[name] = [...(result.patch ? ['patch'] : []), ...Object.keys(result.outputs)];
    }
    expect(produced).toEqual({
      scaler: ['patch'],
      hpa: ['hpa'],
      cpuscaler: ['cpuscaler'],
      // The webservice's own Service serves port 80: the gateway adds only its Ingress.
      gateway: ['ingress'],
      env: ['patch'],
      sidecar: ['patch'],
      resource: ['patch'],
      storage: ['patch', 'pvc-data'],
      affinity: ['patch'],
      annotations: ['patch'],
    });
  });

  it('vets properties against `parameter` with CUE: every error with its field path', async () => {
    const bad = await pool.vet(WEBSERVICE, { image: 3, ports: [{ port: 'eighty' }] });
    expect(bad.valid).toBe(false);
    expect(bad.errors.map((e) => e.path)).toEqual(['parameter.image', 'parameter.ports.0.port']);
    expect(bad.errors[1].message).toContain('"eighty"');
    expect(bad.errors[1].line).toBeGreaterThan(0);

    const missing = await pool.vet(WEBSERVICE, {});
    expect(missing.errors.map((e) => e.path)).toContain('parameter.image');

    const good = await pool.vet(WEBSERVICE, { image: 'nginx', ports: [{ port: 80 }] });
    expect(good).toMatchObject({ valid: true, errors: [] });
    // Defaults applied by CUE.
    expect(good.parameter).toMatchObject({
      image: 'nginx',
      ports: [{ port: 80, protocol: 'TCP', expose: false }],
    });
  });

  it('says whether every property given is one `parameter` names (then no schema is needed for unknown fields)', async () => {
    const named = { image: 'nginx', ports: [{ port: 80, expose: true }], labels: { tier: 'web' } };
    expect((await pool.vet(WEBSERVICE, named)).declared).toBe(true);
    expect((await pool.vet(WEBSERVICE, { image: 'nginx', imagePullPolcy: 'Always' })).declared).toBe(false);
    expect((await pool.vet(WEBSERVICE, { image: 'nginx', ports: [{ port: 80, typo: 1 }] })).declared).toBe(
      false,
    );
    // Under a disjunction the JSON Schema unites alternatives: CUE does not answer, the schema does.
    expect((await pool.vet(ENV_MAP, { env: { LOG_LEVEL: 'info' } })).declared).toBe(false);
  });

  it('fills in the parts of `context` a template reads, and all of it for any other use', async () => {
    const context = {
      ...renderContext(),
      output: { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 2, x: [1, 2] } },
      outputs: { svc: { kind: 'Service', status: { ip: '10.0.0.1' } } },
    };
    const chains = [
      'output: {apiVersion: "v1", kind: "ConfigMap", data: {',
      '  kind: context.output.kind',
      '  replicas: "\\(context.output.spec.replicas)"',
      '  x: "\\(len(context.output.spec.x))"',
      '  ip: context["outputs"].svc.status.ip',
      '  missing: *"none" | string',
      '  if context.output.status != _|_ { missing: "status" }',
      // Tested for existence only: CUE gets `{}` there, which exists as the whole would.
      '  if context.output.spec != _|_ { has: "spec" }',
      '  if _|_ == context.outputs.svc { gone: "svc" }',
      '}}',
    ].join('\n');
    expect((await pool.render(chains, {}, context)).output).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: { kind: 'Deployment', replicas: '2', x: '2', ip: '10.0.0.1', missing: 'none', has: 'spec' },
    });
    // Comprehensions over what `context` holds see every entry, with what they read of it.
    const entries = [
      'output: {apiVersion: "v1", kind: "ConfigMap", data: {',
      '  for k, o in context["outputs"] { (k): o.status.ip }',
      '  count: "\\(len([for k, _ in context.output.spec {k}]))"',
      '}}',
    ].join('\n');
    expect((await pool.render(entries, {}, context)).output).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: { svc: '10.0.0.1', count: '2' },
    });
    // Embedding and re-unifying what `context` holds keeps every field.
    const whole = [
      '_all: [for o in context.outputs {o}]',
      '_ctx: context',
      'output: {apiVersion: "v1", kind: "List", items: _all, spec: _ctx.output.spec}',
    ].join('\n');
    expect((await pool.render(whole, {}, context)).output).toEqual({
      apiVersion: 'v1',
      kind: 'List',
      items: [context.outputs.svc],
      spec: context.output.spec,
    });
  });

  it('sends CUE only the parts of `context` a template reads', () => {
    const context = { name: 'api', output: { kind: 'Deployment', spec: { replicas: 2 } }, cluster: 'local' };
    const reads = [['name'], ['output', 'kind'], ['cluster', 'deeper'], ['missing', 'x']];
    // A path through a value that is not an object keeps the value; a missing key adds nothing.
    expect(pruneContext(context, reads)).toEqual({
      name: 'api',
      output: { kind: 'Deployment' },
      cluster: 'local',
    });
    expect(pruneContext(context, [])).toEqual({});
    // null: every key of an object (what `for k, o in context.outputs { o.kind }` reads).
    const outputs = { a: { kind: 'Service', spec: {} }, b: 'text', c: {} };
    expect(pruneContext({ outputs }, [['outputs', null, 'kind']])).toEqual({
      outputs: { a: { kind: 'Service' }, b: 'text', c: {} },
    });
    // false: only whether it exists (`context.output.status != _|_`); an object stays one, and
    // what another path reads of it is kept too.
    const status = { replicas: 2, conditions: [{ lastUpdateTime: 't' }] };
    expect(pruneContext({ output: { status } }, [['output', 'status', false]])).toEqual({
      output: { status: {} },
    });
    expect(
      pruneContext({ output: { status } }, [
        ['output', 'status', false],
        ['output', 'status', 'replicas'],
      ]),
    ).toEqual({ output: { status: { replicas: 2 } } });
    expect(pruneContext({ output: { status: 3 } }, [['output', 'status', false]])).toEqual({
      output: { status: 3 },
    });
    // A part kept whole is never written into (it is the caller's, maybe frozen).
    const frozen = Object.freeze({ outputs: Object.freeze({ a: Object.freeze({ kind: 'K', x: 1 }) }) });
    expect(
      pruneContext(frozen, [
        ['outputs', 'a'],
        ['outputs', null, 'kind'],
      ]),
    ).toEqual(frozen);
  });

  it('decides disjunctions as CUE does (`*{} | {[string]: string}`: `{}` is open)', async () => {
    expect((await pool.vet(ENV_MAP, { env: { LOG_LEVEL: 'info' } })).valid).toBe(true);
    expect((await pool.vet(ENV_MAP, { env: {} })).valid).toBe(true);
    // The open `{}` disjunct accepts any struct: CUE takes this too.
    expect((await pool.vet(ENV_MAP, { env: { A: 1 } })).valid).toBe(true);
    expect((await pool.vet(ENV_MAP, {})).parameter).toEqual({ env: {} });
    const bad = await pool.vet(ENV_MAP, { env: 'x' });
    expect(bad.valid).toBe(false);
    expect(bad.errors[0].path).toBe('parameter.env');
    const rendered = await pool.render(ENV_MAP, { env: { LOG_LEVEL: 'info' } }, renderContext());
    expect(rendered.output).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', data: { LOG_LEVEL: 'info' } });
    // The schema says what CUE says: any object.
    expect(((await pool.schema(ENV_MAP)) as Json).properties.env).toEqual({ type: 'object' });
  });

  it("exports a JSON Schema of `parameter` from CUE's value, for every built-in", async () => {
    const schema = (await pool.schema(WEBSERVICE)) as Json;
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['image']);
    expect(schema.properties.image).toEqual({
      type: 'string',
      description: 'Which image would you like to use for your service',
    });
    expect(schema.properties.exposeType).toMatchObject({
      enum: ['ClusterIP', 'NodePort', 'LoadBalancer'],
      default: 'ClusterIP',
    });
    expect(schema.properties.ports.items.properties.port.type).toBe('integer');
    expect(((await pool.schema(builtinTemplate('traits/scaler'))) as Json).properties.replicas).toEqual({
      type: 'integer',
      minimum: 0,
      default: 1,
      description: 'Specify the number of workload',
    });
    // Every CUE built-in (labels is a Handlebars one).
    for (const name of BUILTINS.filter((n) => builtin(n).spec.schematic.cue)) {
      const traitSchema = await pool.schema(builtinTemplate(name));
      expect(traitSchema.type).toBe('object');
    }
  });

  it('marks a struct-valued field required exactly when CUE needs it given', async () => {
    const source = `parameter: {
  cpu: {type: string}
  tuned: {a?: int, b: *1 | int}
  ports: [...{port: int}]
  opt?: {type: string}
}
output: {apiVersion: "v1", kind: "ConfigMap"}
`;
    expect((await pool.schema(source)).required).toEqual(['cpu']);
    // CUE agrees: only cpu missing is an error.
    const vet = await pool.vet(source, {});
    expect(vet.valid).toBe(false);
    expect(new Set(vet.errors.map((e) => e.path.split('.').slice(0, 2).join('.')))).toEqual(
      new Set(['parameter.cpu']),
    );
    expect((await pool.vet(source, { cpu: { type: 'x' } })).valid).toBe(true);
  });

  it("exports CUE's own OpenAPI document, or an error (never a panic) where the generator refuses", async () => {
    const doc = (await pool.openapi(WEBSERVICE)) as Json;
    const schema = doc.components.schemas.parameter;
    expect(schema.properties.image).toMatchObject({ type: 'string' });
    const refused = await rejection(pool.openapi(builtinTemplate('traits/scaler')));
    expect(refused).toBeInstanceOf(WorkerTaskError);
    expect(refused.message).toContain('unsupported op for number');
  });

  it('evaluates a health policy and a custom status against context.output', async () => {
    const { healthPolicy, customStatus } = builtin('components/webservice').spec.status;
    const ready = {
      spec: { replicas: 2 },
      metadata: { generation: 3 },
      status: { replicas: 2, readyReplicas: 2, updatedReplicas: 2, observedGeneration: 3 },
    };
    const starting = { ...ready, status: { ...ready.status, readyReplicas: 1 } };
    const health = (output: unknown) =>
      pool.evaluate(healthPolicy, {}, { output, outputs: {} }, ['isHealth']);
    expect(await health(ready)).toEqual({ isHealth: true });
    expect(await health(starting)).toEqual({ isHealth: false });
    expect(await pool.evaluate(customStatus, {}, { output: starting }, ['message'])).toEqual({
      message: 'Ready:1/2',
    });
  });

  it("reads +patchKey, +patchStrategy and +usage markers from CUE's syntax tree", async () => {
    const marks = await pool.comments(builtinTemplate('traits/env'));
    const at = (path: string) => marks.find((m) => m.path.join('.') === path)?.marks;
    expect(at('patch.spec.template.spec.containers')).toEqual({ patchKey: 'name' });
    expect(at('patch.spec.template.spec.containers.[].env')).toEqual({ patchStrategy: 'replace' });
    expect(at('parameter.replace')?.usage).toMatch(/^Specify/);
    // A marker above a chained declaration belongs to its last field.
    const chained = await pool.comments(
      'patch: {\n\t// +patchStrategy=retainKeys\n\tspec: strategy: type: "Recreate"\n}\n',
    );
    expect(chained).toEqual([
      { path: ['patch', 'spec', 'strategy', 'type'], line: 3, marks: { patchStrategy: 'retainKeys' } },
    ]);
  });

  it('renders storage-style optional outputs (no "cannot reference optional field")', async () => {
    const none = await pool.render(STORAGE_STYLE, {}, renderContext());
    expect(none.outputs).toEqual({});
    expect(none.patch).toEqual({ spec: { template: { spec: { volumes: [] } } } });
    const two = await pool.render(
      STORAGE_STYLE,
      {
        pvc: [
          { name: 'data', mountPath: '/data', resources: { requests: { storage: '1Gi' } } },
          { name: 'cache', mountPath: '/cache', storageClassName: 'fast' },
          { name: 'old', mountPath: '/old', mountOnly: true },
        ],
      },
      renderContext(),
    );
    expect(Object.keys(two.outputs)).toEqual(['pvc-data', 'pvc-cache']);
    expect(two.outputs['pvc-data']).toMatchObject({
      kind: 'PersistentVolumeClaim',
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    expect(two.outputs['pvc-cache']).toMatchObject({
      spec: { storageClassName: 'fast', resources: { requests: { storage: '8Gi' } } },
    });
    expect((two.patch as Json).spec.template.spec.volumes).toHaveLength(3);
  });

  it("returns KubeVela's `errs`, the template's own verdict, as it is", async () => {
    const source = `parameter: port: int\nerrs: [ if parameter.port < 1024 { "port \\(parameter.port) is privileged" } ]\n`;
    expect((await pool.render(source, { port: 80 }, renderContext())).errs).toEqual([
      'port 80 is privileged',
    ]);
    expect((await pool.render(source, { port: 8080 }, renderContext())).errs).toEqual([]);
  });

  it("reports a template's errors with field paths and lines; a syntax error fails its compile", async () => {
    const conflict = await rejection(
      pool.render(WEBSERVICE, { image: 'nginx', ports: [{ port: 'x' }] }, renderContext()),
    );
    expect(conflict).toBeInstanceOf(WorkerTaskError);
    expect(conflict.message).toMatch(/^parameter\.ports\.0\.port: conflicting values/m);
    const syntax = await rejection(pool.render('output: {\n\tkind: \n', {}, renderContext()));
    expect(syntax).toBeInstanceOf(WorkerTaskError);
    expect(syntax.message).toMatch(/expected/);
  });
});

describe('CUE v0.14 module: failures never print', () => {
  let stdout: jest.SpiedFunction<typeof process.stdout.write>;
  let stderr: jest.SpiedFunction<typeof process.stderr.write>;
  let quiet: Cue14Pool;
  beforeAll(() => {
    stdout = jest.spyOn(process.stdout, 'write');
    stderr = jest.spyOn(process.stderr, 'write');
    // Default worker options: a worker's output would be piped to this process's streams.
    quiet = createCue14Pool({ timeoutMs: 60000, size: 1 });
  });
  afterAll(async () => {
    await quiet.close();
    stdout.mockRestore();
    stderr.mockRestore();
  });

  it('returns a Go panic inside an entry point as a crash and replaces the worker (its state may be broken)', async () => {
    const err = await rejection(quiet.run({ op: 'panic' }));
    expect(err).toBeInstanceOf(WorkerCrashError);
    expect(err.message).toBe('the CUE evaluator panicked: deliberate panic (test hook)');
    expect(await quiet.version()).toMatchObject({ cue: 'v0.14.1' });
    expect(quiet.stats.replaced).toBe(1);
  });

  it('turns a dead Go runtime into a crash error with its panic message and replaces the worker', async () => {
    const err = await rejection(quiet.run({ op: 'crash' }));
    expect(err).toBeInstanceOf(WorkerCrashError);
    expect(err.message).toMatch(
      /^the CUE evaluator died \(exit code 2\): panic: deliberate crash \(test hook\)/,
    );
    expect(quiet.stats.replaced).toBe(2);
    const after = await quiet.render(WEBSERVICE, { image: 'nginx' }, renderContext({ name: 'after' }));
    expect(after.output).toMatchObject({ spec: { template: { spec: { containers: [{ name: 'after' }] } } } });
  });

  it('wrote nothing to stdout or stderr, here or in the workers', async () => {
    // Output piped from a worker arrives asynchronously: give it a turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stdout.mock.calls.map((c) => String(c[0])).join('')).toBe('');
    expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toBe('');
    expect(workerOutput).toBe('');
  });
});

describe('CUE v0.14 module: time limit', () => {
  const clock = new FakeClock();
  let limited: Cue14Pool;
  beforeAll(async () => {
    limited = createCue14Pool({ timeoutMs: 1500, size: 1, clock });
    await limited.version(); // warm: the limit is armed as soon as the evaluation starts
  });
  afterAll(() => limited.close());

  it('stops a template that never terminates and replaces its worker', async () => {
    const outcome = rejection(limited.render(NEVER_ENDS, {}, renderContext()));
    await clock.waitForTimers(1);
    await clock.advance(1500);
    expect(await outcome).toBeInstanceOf(WorkerTimeoutError);
    expect(await limited.version()).toMatchObject({ cue: 'v0.14.1' });
  });
});
