import { RenderError, RenderErrors } from '../../errors.js';
import { createCueEngine, healthRequest, type CueEngine } from './index.js';
import { renderContext, SIDECAR_TRAIT, WEBSERVICE } from './testdata/fixtures.js';

/** A JSON document the assertions walk into. */
interface Json {
  [key: string]: Json;
}

let engine: CueEngine;
beforeAll(() => {
  engine = createCueEngine({ timeoutMs: 10000, poolSize: 2 });
});
afterAll(() => engine.close());

async function failure(p: Promise<unknown>): Promise<RenderError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  // Several CUE errors come as RenderErrors: the first is the one these tests look at.
  const first = err instanceof RenderErrors ? err.errors[0] : err;
  expect(first).toBeInstanceOf(RenderError);
  return first as RenderError;
}

describe('CUE engine: evaluation', () => {
  const webservice = () => engine.compile('ComponentDefinition "webservice"', WEBSERVICE);

  it('renders a webservice: Deployment output with defaults, Service in outputs', async () => {
    const result = await webservice().evaluate({
      parameter: { image: 'nginx:1.27', ports: [{ port: 80, expose: true }, { port: 9090 }] },
      context: renderContext(),
    });
    expect(result.output).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      spec: {
        replicas: 1,
        selector: { matchLabels: { 'app.oam.dev/component': 'api' } },
        template: {
          metadata: { labels: { 'app.oam.dev/name': 'shop', 'app.oam.dev/component': 'api' } },
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
      kind: 'Service',
      metadata: { name: 'api' },
      spec: { type: 'ClusterIP', ports: [{ port: 80, targetPort: 80, name: 'port-80' }] },
    });
    expect(result.patch).toBeUndefined();
  });

  it('leaves helper fields out, even when they are incomplete', async () => {
    const result = await webservice().evaluate({ parameter: { image: 'nginx' }, context: renderContext() });
    expect(result.outputs).toEqual({});
    expect(result.output!.spec).toMatchObject({ replicas: 1 });
    expect(JSON.stringify(result)).not.toMatch(/mountsArray|exposePorts/);
  });

  it('uses helpers, definitions and nested parameters when they are given', async () => {
    const result = await webservice().evaluate({
      parameter: {
        image: 'nginx',
        replicas: 3,
        labels: { tier: 'web' },
        volumeMounts: { pvc: [{ name: 'data', mountPath: '/data', claimName: 'claim' }] },
        livenessProbe: { httpGet: { path: '/healthz', port: 8080 } },
      },
      context: renderContext(),
    });
    const pod = (result.output as Json).spec.template;
    expect(pod.metadata.labels.tier).toBe('web');
    expect(pod.spec.containers[0].volumeMounts).toEqual([{ mountPath: '/data', name: 'data' }]);
    expect(pod.spec.containers[0].livenessProbe).toEqual({
      httpGet: { path: '/healthz', port: 8080 },
      initialDelaySeconds: 0,
    });
  });

  it('supports the strconv, strings, math and list packages', async () => {
    const template = `import (
	"strconv"
	"strings"
	"math"
	"list"
)
output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: {
		port:  strconv.FormatInt(parameter.port, 10)
		upper: strings.ToUpper(parameter.name)
		parts: strings.Join(strings.Split(parameter.name, "-"), "_")
		floor: strconv.FormatFloat(math.Floor(parameter.ratio), 102, 0, 64)
		range: strings.Join([ for i in list.Range(0, 3, 1) {strconv.FormatInt(i, 10)}], ",")
		sorted: strings.Join(list.SortStrings(["b", "a"]), ",")
	}
}
parameter: {port: int, name: string, ratio: number}
`;
    const result = await engine
      .compile('ComponentDefinition "packages"', template)
      .evaluate({ parameter: { port: 8080, name: 'my-app', ratio: 2.7 }, context: renderContext() });
    expect((result.output as Json).data).toEqual({
      port: '8080',
      upper: 'MY-APP',
      parts: 'my_app',
      floor: '2',
      range: '0,1,2',
      sorted: 'a,b',
    });
  });

  it('supports hidden fields, let and definitions', async () => {
    const template = `_prefix: "app-"
let fullName = _prefix + context.name
#Meta: {name: string, labels: [string]: string}
output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	metadata: #Meta & {name: fullName, labels: app: fullName}
}
`;
    const result = await engine
      .compile('ComponentDefinition "hidden"', template)
      .evaluate({ parameter: {}, context: renderContext() });
    expect(result.output!.metadata).toEqual({ name: 'app-api', labels: { app: 'app-api' } });
  });

  it('evaluates a trait patch against context.output and returns its patch keys', async () => {
    const trait = engine.compile('TraitDefinition "sidecar"', SIDECAR_TRAIT);
    const result = await trait.evaluate({
      parameter: { name: 'log', image: 'fluentd' },
      context: renderContext({
        output: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api' } },
      }),
    });
    expect(result.patch).toEqual({
      spec: {
        template: {
          spec: {
            containers: [{ name: 'log', image: 'fluentd', env: [{ name: 'SIDECAR_OF', value: 'api' }] }],
          },
        },
      },
    });
    expect(result.patchKeys).toEqual({
      'spec.template.spec.containers': 'name',
      'spec.template.spec.containers[].env': 'name',
    });
    expect(result.output).toBeUndefined();
  });

  it('does not take a field selected from context (context.outputs) for a reference to a top-level field', async () => {
    const template = `parameter: port: *80 | int
_others: len(context.outputs)
outputs: svc: {apiVersion: "v1", kind: "Service", spec: ports: [{port: parameter.port}]}
`;
    const compiled = engine.compile('TraitDefinition "svc"', template);
    await expect(compiled.parameterSchema()).resolves.toMatchObject({
      properties: { port: { default: 80 } },
    });
    const result = await compiled.evaluate({ parameter: {}, context: renderContext({ outputs: {} }) });
    expect(result.outputs.svc).toMatchObject({ spec: { ports: [{ port: 80 }] } });
  });

  it('keeps the order of outputs as the template declares them', async () => {
    const template = `outputs: {
	zeta: {apiVersion: "v1", kind: "ConfigMap"}
	alpha: {apiVersion: "v1", kind: "Secret"}
}
`;
    const result = await engine
      .compile('TraitDefinition "order"', template)
      .evaluate({ parameter: {}, context: renderContext() });
    expect(Object.keys(result.outputs)).toEqual(['zeta', 'alpha']);
  });
});

describe('CUE engine: errors', () => {
  it('names a context key the platform does not provide', async () => {
    const template = `output: {apiVersion: "v1", kind: "Pod", metadata: name: context.podName}\n`;
    const err = await failure(
      engine
        .compile('ComponentDefinition "pod"', template)
        .evaluate({ parameter: {}, context: renderContext() }),
    );
    expect(err.source).toBe('definition');
    expect(err.detail).toContain(
      'context.podName is not provided by this platform (provided: name, appName,',
    );
    expect(err.detail).toContain('ComponentDefinition "pod"');
  });

  it('reports a syntax error as a definition error', async () => {
    const err = await failure(
      engine
        .compile('ComponentDefinition "broken"', 'output: {\n  apiVersion: "v1"\n')
        .evaluate({ parameter: {}, context: renderContext() }),
    );
    expect(err.source).toBe('definition');
    expect(err.message).toMatch(
      /^definition error: ComponentDefinition "broken", template line 2: .*expected/,
    );
  });

  it('names the template line of a syntax error, from the position CUE reports', async () => {
    const template = `output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: x: parameter.x +
}
parameter: x: string
`;
    const err = await failure(
      engine
        .compile('ComponentDefinition "broken"', template)
        .evaluate({ parameter: { x: 'a' }, context: renderContext() }),
    );
    expect(err.detail).toMatch(/^ComponentDefinition "broken", template line 5: expected operand, found '}'/);
  });

  it('names the template line of the field an evaluation error is about', async () => {
    const template = `parameter: x: string
_helper: {
	value: parameter.x
}
output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: x: _helper.value & 5
}
`;
    const err = await failure(
      engine
        .compile('ComponentDefinition "conflict"', template)
        .evaluate({ parameter: { x: 'a' }, context: renderContext() }),
    );
    expect(err.source).toBe('definition');
    expect(err.detail).toMatch(
      /^ComponentDefinition "conflict", template line 8: output\.data\.x: conflicting values/,
    );
  });

  it('names the template line reading a context key the platform does not provide', async () => {
    const template = `output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: key: context.replicaKey
}
`;
    const err = await failure(
      engine
        .compile('ComponentDefinition "ctx"', template)
        .evaluate({ parameter: {}, context: renderContext() }),
    );
    expect(err.detail).toMatch(
      /^ComponentDefinition "ctx", template line 4: context\.replicaKey is not provided/,
    );
  });

  it("fails with each of the template's own `errs`, as KubeVela does", async () => {
    const template = `parameter: containerName: string
_found: parameter.containerName == "api"
output: {apiVersion: "v1", kind: "ConfigMap", data: name: parameter.containerName}
errs: [ if !_found {"container \\(parameter.containerName) not found"}, if !_found {"second problem"}]
`;
    const compiled = engine.compile('TraitDefinition "env"', template);
    const err = await compiled
      .evaluate({ parameter: { containerName: 'proxy' }, context: renderContext() })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(RenderErrors);
    expect((err as RenderErrors).errors.map((e) => [e.source, e.detail])).toEqual([
      ['user', 'TraitDefinition "env" reports: container proxy not found'],
      ['user', 'TraitDefinition "env" reports: second problem'],
    ]);
    const ok = await compiled.evaluate({ parameter: { containerName: 'api' }, context: renderContext() });
    expect(ok.output).toMatchObject({ data: { name: 'api' } });
  });

  it('reports a conflict inside the template as a definition error with its path', async () => {
    const template = `output: {apiVersion: "v1", kind: "ConfigMap", data: a: "x"}\noutput: data: a: "y"\n`;
    const err = await failure(
      engine
        .compile('ComponentDefinition "conflict"', template)
        .evaluate({ parameter: {}, context: renderContext() }),
    );
    expect(err.source).toBe('definition');
    expect(err.detail).toMatch(/output\.data\.a: conflicting values "(x|y)" and "(x|y)"/);
  });

  it('reports an incomplete output as a definition error', async () => {
    const template = `output: {apiVersion: "v1", kind: "ConfigMap", data: a: string}\n`;
    const err = await failure(
      engine
        .compile('ComponentDefinition "incomplete"', template)
        .evaluate({ parameter: {}, context: renderContext() }),
    );
    expect(err.source).toBe('definition');
    expect(err.detail).toMatch(/output\.data\.a: .*incomplete value string/);
  });

  it('blames the user for a parameter value the template rejects', async () => {
    const err = await failure(
      engine
        .compile('ComponentDefinition "webservice"', WEBSERVICE)
        .evaluate({ parameter: { image: 'nginx', replicas: 'three' }, context: renderContext() }),
    );
    expect(err.source).toBe('user');
    expect(err.location.path).toBe('properties.replicas');
    expect(err.detail).toMatch(
      /^matches none of the allowed values \(2 errors in empty disjunction\); conflicting values "three" and 1/,
    );
  });

  it('reports a missing required parameter when vetting, on that property', async () => {
    const checked = await engine.compile('ComponentDefinition "webservice"', WEBSERVICE).validate!({});
    expect(checked.issues).toEqual([
      { path: 'properties.image', message: 'required (expected string)', severity: 'error' },
    ]);
  });

  it('vets as CUE does: `env: *{} | {[string]: string}` takes a map of strings, and `{}` (open) anything', async () => {
    const template = `parameter: env: *{} | {[string]: string}
output: {apiVersion: "v1", kind: "ConfigMap", data: parameter.env}
`;
    const compiled = engine.compile('ComponentDefinition "env"', template);
    for (const env of [{ LOG_LEVEL: 'info' }, {}, { A: 1 }]) {
      const checked = await compiled.validate!({ env });
      expect(checked.issues.filter((i) => i.severity === 'error')).toEqual([]);
    }
    const bad = await compiled.validate!({ env: 'text' });
    expect(bad.issues).toEqual([expect.objectContaining({ path: 'properties.env', severity: 'error' })]);
  });

  it('reports every vet error with its field path, quoted keys and list indexes included', async () => {
    const checked = await engine.compile('ComponentDefinition "webservice"', WEBSERVICE).validate!({
      image: 'nginx',
      ports: [{ port: 'x' }],
      labels: { 'a.b/c': 1 },
    });
    expect(
      checked.issues
        .filter((i) => i.severity === 'error')
        .map((i) => i.path)
        .sort(),
    ).toEqual(['properties.labels["a.b/c"]', 'properties.ports[0].port']);
  });

  it('rejects an output that is not a Kubernetes object', async () => {
    const err = await failure(
      engine
        .compile('ComponentDefinition "plain"', 'output: {name: "x"}\n')
        .evaluate({ parameter: {}, context: renderContext() }),
    );
    expect(err.detail).toContain('`output` must be a Kubernetes object with apiVersion and kind');
  });

  it('evaluates the named fields of a health request through the same pool', async () => {
    const request = (source: string) =>
      healthRequest({ source, parameter: { n: 1 }, context: { name: 'x' }, fields: ['a'] });
    await expect(
      engine.evaluateSource('health "x"', request('a: parameter.n + 1\n_b: a\nincomplete: string\n')),
    ).resolves.toEqual({ a: 2 });
    const err = await failure(engine.evaluateSource('health "x"', request('a: int\n')));
    expect(err.detail).toMatch(/^health "x", template line 1: a: .*incomplete value int/);
  });
});
