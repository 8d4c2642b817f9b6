import { readFileSync } from 'node:fs';
import { createRenderer, renderSources, type RendererHandle } from '../../index.js';
import { projectRoot } from '#definitions';
import { ensureBuilt } from '../../../../../test/support/build.js';

// Templates render in worker threads that run the compiled engine (see handlebars.worker.mjs).
beforeAll(() => ensureBuilt(projectRoot()), 240_000);

/**
 * A Deployment+Service component type and a sidecar trait written in
 * Handlebars, rendered through the whole renderer: parse, resolve, parameter
 * validation with defaults, this engine, the trait's patch with its
 * `# +patchKey=` list merge, and KubeVela's assembly.
 */
const definitions = `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata:
  name: web
spec:
  workload:
    definition: {apiVersion: apps/v1, kind: Deployment}
  schematic:
    handlebars:
      parameters:
        type: object
        required: [image]
        properties:
          image: {type: string}
          port: {type: integer, default: 80}
          replicas: {type: integer, default: 1}
          exposeType: {type: string, enum: [ClusterIP, NodePort, LoadBalancer], default: ClusterIP}
          env:
            type: array
            items:
              type: object
              required: [name]
              properties: {name: {type: string}, value: {type: string}}
      template: |
        output:
          apiVersion: apps/v1
          kind: Deployment
          spec:
            replicas: {{parameter.replicas}}
            selector:
              matchLabels:
                app.oam.dev/component: {{context.name}}
            template:
              metadata:
                labels:
                  app.oam.dev/component: {{context.name}}
              spec:
                containers:
                  - name: {{context.name}}
                    image: {{parameter.image}}
                    ports:
                      - containerPort: {{parameter.port}}
        {{#if parameter.env}}
                    env:
        {{yaml parameter.env indent=14}}
        {{/if}}
        outputs:
          service:
            apiVersion: v1
            kind: Service
            metadata:
              name: {{context.name}}
            spec:
              type: {{parameter.exposeType}}
              selector:
                app.oam.dev/component: {{context.name}}
              ports:
                - port: {{parameter.port}}
                  targetPort: {{parameter.port}}
---
apiVersion: core.oam.dev/v1beta1
kind: TraitDefinition
metadata:
  name: log-sidecar
spec:
  appliesToWorkloads: [deployments.apps]
  schematic:
    handlebars:
      parameters:
        type: object
        properties:
          image: {type: string, default: "busybox:1.36"}
      template: |
        patch:
          spec:
            template:
              spec:
                # +patchKey=name
                containers:
                  - name: log
                    image: {{parameter.image}}
                    args: [tail, -f, {{concat "/var/log/" context.name ".log"}}]
`;

const app = (properties: string) => `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: shop
  namespace: prod
spec:
  components:
    - name: api
      type: web
      properties:
${properties.replace(/^/gm, '        ')}
      traits:
        - type: log-sidecar
`;

let handle: RendererHandle;
beforeAll(() => {
  handle = createRenderer({ timeoutMs: 5000, poolSize: 1 });
});
afterAll(() => handle.close());

const render = (properties: string, strict = false) =>
  renderSources(
    [
      { path: 'defs.yaml', text: definitions },
      { path: 'app.yaml', text: app(properties) },
    ],
    handle.renderer,
    { builtins: [], strict },
  );

describe('a Handlebars Deployment+Service definition, end to end', () => {
  it('renders the Deployment and the Service, with defaults, context and the sidecar merged in', async () => {
    const result = await render('image: "shop/api:1.2"\nenv:\n  - {name: MODE, value: "a: b"}');
    expect(result.errors.map((e) => e.message)).toEqual([]);
    expect(result.warnings).toEqual([]);
    const [deployment, service] = result.apps[0].objects.map((o) => o.object);
    expect(deployment).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api', namespace: 'prod' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { 'app.oam.dev/component': 'api' } },
        template: {
          spec: {
            containers: [
              {
                name: 'api',
                image: 'shop/api:1.2',
                ports: [{ containerPort: 80 }],
                env: [{ name: 'MODE', value: 'a: b' }],
              },
              { name: 'log', image: 'busybox:1.36', args: ['tail', '-f', '/var/log/api.log'] },
            ],
          },
        },
      },
    });
    expect(deployment.metadata!.labels).toMatchObject({
      'app.oam.dev/name': 'shop',
      'app.oam.dev/component': 'api',
      'workload.oam.dev/type': 'web',
    });
    expect(service).toMatchObject({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api', namespace: 'prod' },
      spec: { type: 'ClusterIP', ports: [{ port: 80, targetPort: 80 }] },
    });
  });

  it('reports a bad property with its file, line and path, as the user wrote it', async () => {
    const result = await render('image: x\nport: eighty\nexposeType: Foo');
    expect(result.apps).toEqual([]);
    expect(result.errors.map((e) => e.message)).toEqual([
      'app.yaml:12: Application "shop", components[0] "api" (web): properties.port: expected integer, got "eighty"',
      'app.yaml:13: Application "shop", components[0] "api" (web): properties.exposeType: expected one of ClusterIP, NodePort, LoadBalancer, got "Foo"',
    ]);
  });

  it('warns about an unknown property, and refuses it when strict', async () => {
    const lenient = await render('image: x\nimagee: y');
    expect(lenient.errors).toEqual([]);
    expect(lenient.warnings.map((w) => w.message)).toEqual([
      'app.yaml:12: Application "shop", components[0] "api" (web): properties.imagee: unknown field (did you mean "image"?)',
    ]);
    const strict = await render('image: x\nimagee: y', true);
    expect(strict.errors.map((e) => e.message)).toEqual([
      'app.yaml:12: Application "shop", components[0] "api" (web): properties.imagee: unknown field (did you mean "image"?)',
    ]);
  });
});

describe('the example of docs/handlebars-definitions.md', () => {
  it('renders as the document says', async () => {
    const doc = readFileSync(
      new URL('../../../../../docs/handlebars-definitions.md', import.meta.url),
      'utf8',
    );
    const example =
      /```yaml\n(apiVersion: core\.oam\.dev\/v1beta1\nkind: ComponentDefinition[\s\S]*?)```/.exec(doc);
    expect(example).not.toBeNull();
    const result = await renderSources(
      [
        { path: 'web.yaml', text: example![1] },
        {
          path: 'app.yaml',
          text: app('image: x\nenv: [{name: A, value: "1"}]').replace(/\s+traits:[\s\S]*$/, '\n'),
        },
      ],
      handle.renderer,
      { builtins: [] },
    );
    expect(result.errors.map((e) => e.message)).toEqual([]);
    const [deployment, service] = result.apps[0].objects.map((o) => o.object);
    expect(deployment.spec).toMatchObject({
      replicas: 1,
      template: { spec: { containers: [{ name: 'api', image: 'x', env: [{ name: 'A', value: '1' }] }] } },
    });
    expect(service.spec).toMatchObject({ type: 'ClusterIP', ports: [{ port: 80, targetPort: 80 }] });
  });
});
