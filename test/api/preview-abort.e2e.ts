import { eventually } from '#kube-core';
import { ADMIN, ApiPlane, call } from './harness.js';

/**
 * A preview of a template that never ends, as a hostile tenant sends it: once its response is
 * sent (the 503 of the request time limit) or its client goes away, its evaluation stops and
 * the worker running it is replaced. Here nothing else could stop it: no CPU limit, no
 * evaluation deadline within the test.
 */
let plane: ApiPlane;
let ns: string;
beforeAll(async () => {
  plane = await ApiPlane.start({
    requestTimeoutMs: 2000,
    evalCpuLimitMs: 3_600_000,
    evalTimeoutMs: 3_600_000,
  });
  ns = await plane.cluster.namespace('bombs');
  // Applied in this order, so once the API's cache holds `quick` it holds `spin` too.
  await plane.cluster.applyObject(definition('spin', SPIN));
  await plane.cluster.applyObject(definition('quick', QUICK));
  await eventually(
    async () =>
      (await call(plane.url, 'POST', path(), { token: ADMIN, body: app('q', 'quick', 0) })).status === 200,
    'a preview of the quick type (definitions cached, CUE loaded)',
  );
});
afterAll(() => plane?.stop());

const app = (name: string, type: string, n: number) => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name },
  spec: { components: [{ name: 'c', type, properties: { n } }] },
});

const SPIN = `import "list"
parameter: {n: *1 | int}
output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: x: "\\(len([for i in list.Range(0, 1000000000000, 1) if i < 0 {i}]))"
}
`;
const QUICK = `parameter: {n: *1 | int}
output: {apiVersion: "v1", kind: "ConfigMap", data: x: "\\(parameter.n)"}
`;

const definition = (name: string, template: string) =>
  ({
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'ComponentDefinition',
    metadata: { name, namespace: ns },
    spec: {
      workload: { definition: { apiVersion: 'v1', kind: 'ConfigMap' } },
      schematic: { cue: { template } },
    },
  }) as never;
const path = () => `/api/v1/namespaces/${ns}/preview`;
const busy = () => plane.api.evaluations().cue.busy;

describe('preview of a runaway template', () => {
  it('stops evaluating once the 503 is sent', async () => {
    const before = plane.api.evaluations().cue.replaced;
    const answer = call(plane.url, 'POST', path(), { token: ADMIN, body: app('a', 'spin', 1) });
    await eventually(() => busy() === 1, 'the runaway evaluating');
    const res = await answer;
    expect(res.status).toBe(503);
    expect(JSON.stringify(res.body)).toMatch(/no answer within/);
    await eventually(() => busy() === 0, 'no busy CUE worker');
    expect(plane.api.evaluations().cue.replaced).toBe(before + 1);
  });

  it('stops evaluating when the client goes away', async () => {
    const before = plane.api.evaluations().cue.replaced;
    const client = new AbortController();
    const sent = fetch(plane.url + path(), {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(app('b', 'spin', 2)), // other properties: not answered from a remembered failure
      signal: client.signal,
    }).catch((e: unknown) => e);
    await eventually(() => busy() === 1, 'the runaway evaluating');
    client.abort();
    expect(String(await sent)).toMatch(/abort/i);
    await eventually(() => busy() === 0, 'no busy CUE worker');
    expect(plane.api.evaluations().cue.replaced).toBe(before + 1);
  });
});
