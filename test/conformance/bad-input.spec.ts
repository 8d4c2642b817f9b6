import { useTarget } from './target.js';

/** Bad input gets the status code, reason and message kube-apiserver gives. */
const target = useTarget();
let ns: string;
beforeAll(async () => {
  ns = await target().namespace('bad');
});

const cms = () => `/api/v1/namespaces/${ns}/configmaps`;
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

function invalid(kind: string, name: string, field: string, detail: string): object {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${kind} "${name}" is invalid: ${field}: ${detail}`,
    reason: 'Invalid',
    details: { name, kind, causes: [{ reason: 'FieldValueInvalid', message: detail, field }] },
    code: 422,
  };
}

describe('malformed bodies', () => {
  it('malformed JSON is 400 BadRequest with the parse error', async () => {
    const res = await target().http.post(cms(), '{"metadata": {"name": "x",}');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(res.json().message).toMatch(
      /^the object provided is unrecognized \(must be of type ConfigMap\): /,
    );
  });

  it('malformed YAML is 400 BadRequest', async () => {
    const res = await target().http.post(cms(), 'metadata:\n  name: [oops', {
      contentType: 'application/yaml',
    });
    expect(res.status).toBe(400);
    expect(res.json().reason).toBe('BadRequest');
    expect(res.json().message).toMatch(
      /^the object provided is unrecognized \(must be of type ConfigMap\): yaml: /,
    );
  });

  it('YAML is accepted as a body', async () => {
    const res = await target().http.post(cms(), 'metadata:\n  name: from-yaml\ndata:\n  k: v\n', {
      contentType: 'application/yaml',
    });
    expect(res.status).toBe(201);
    expect(res.json().data).toEqual({ k: 'v' });
  });

  it('an unknown content type is 415 UnsupportedMediaType', async () => {
    const res = await target().http.post(cms(), 'x', { contentType: 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.json()).toMatchObject({
      reason: 'UnsupportedMediaType',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    });
  });

  it('a body over 3 MiB is 413 RequestEntityTooLarge and stores nothing', async () => {
    const body = JSON.stringify({ metadata: { name: 'big' }, data: { a: 'x'.repeat(3 * 1024 * 1024 + 10) } });
    const res = await target().http.post(cms(), body);
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: limit is 3145728',
      code: 413,
    });
    expect((await target().http.get(`${cms()}/big`)).status).toBe(404);
  });
});

describe('wrong kinds', () => {
  it('a Secret posted to configmaps is 400 BadRequest', async () => {
    const res = await target().http.post(cms(), {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'wk' },
    });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      reason: 'BadRequest',
      message:
        'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion',
    });
  });

  it('the right kind in the wrong group version is 400 BadRequest', async () => {
    const res = await target().http.post(cms(), {
      apiVersion: 'apps/v1',
      kind: 'ConfigMap',
      metadata: { name: 'wk' },
    });
    expect(res.status).toBe(400);
    expect(res.json().reason).toBe('BadRequest');
    expect(res.json().message).toMatch(
      /^ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps\/v1"/,
    );
  });
});

describe('invalid names', () => {
  it('a configmap name that is not a DNS-1123 subdomain', async () => {
    const res = await target().http.post(cms(), { metadata: { name: 'Invalid_Name' } });
    expect(res.status).toBe(422);
    expect(res.json()).toEqual(
      invalid('ConfigMap', 'Invalid_Name', 'metadata.name', `Invalid value: "Invalid_Name": ${SUBDOMAIN}`),
    );
  });

  it('a name longer than 253 characters', async () => {
    const name = 'a'.repeat(254);
    const res = await target().http.post(cms(), { metadata: { name } });
    expect(res.status).toBe(422);
    expect(res.json().details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${name}": must be no more than 253 characters`,
        field: 'metadata.name',
      },
    ]);
  });

  it('a namespace name that is not a DNS-1123 label', async () => {
    const res = await target().http.post('/api/v1/namespaces', { metadata: { name: 'Bad_NS' } });
    expect(res.status).toBe(422);
    expect(res.json()).toEqual(
      invalid('Namespace', 'Bad_NS', 'metadata.name', `Invalid value: "Bad_NS": ${LABEL}`),
    );
    const dotted = await target().http.post('/api/v1/namespaces', { metadata: { name: 'a.b' } });
    expect(dotted.json()).toEqual(
      invalid('Namespace', 'a.b', 'metadata.name', 'Invalid value: "a.b": must not contain dots'),
    );
  });

  it('a service name that is not a DNS-1123 label (1.37 relaxed DNS-1035 to it: "1svc" is accepted)', async () => {
    const res = await target().http.post(`/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 'Bad_Svc' },
      spec: { ports: [{ port: 80 }] },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toEqual(
      invalid('Service', 'Bad_Svc', 'metadata.name', `Invalid value: "Bad_Svc": ${LABEL}`),
    );
    const digit = await target().http.post(`/api/v1/namespaces/${ns}/services`, {
      metadata: { name: '1svc' },
      spec: { ports: [{ port: 80 }] },
    });
    expect(digit.status).toBe(201);
  });

  it('an invalid data key names the field', async () => {
    const res = await target().http.post(cms(), { metadata: { name: 'bad-key' }, data: { 'bad key': 'v' } });
    expect(res.status).toBe(422);
    expect(res.json().details.causes).toEqual([
      expect.objectContaining({ reason: 'FieldValueInvalid', field: 'data[bad key]' }),
    ]);
  });

  it('a Deployment without selector or containers lists every cause', async () => {
    const res = await target().http.post(`/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'empty' },
      spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [] } } },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({
      reason: 'Invalid',
      details: { name: 'empty', group: 'apps', kind: 'Deployment' },
    });
    expect(res.json().message.startsWith('Deployment.apps "empty" is invalid: [')).toBe(true);
    expect(res.json().details.causes).toEqual(
      expect.arrayContaining([
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.template.spec.containers' },
      ]),
    );
  });
});

describe('unknown fields', () => {
  it('fieldValidation=Strict refuses them with 400 naming each', async () => {
    const res = await target().http.post(`${cms()}?fieldValidation=Strict`, {
      metadata: { name: 'strict', bogus: 1 },
      bogus: 1,
    });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      reason: 'BadRequest',
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.bogus", unknown field "bogus"',
    });
  });

  it('by default they are dropped with a Warning header', async () => {
    const res = await target().http.post(cms(), { metadata: { name: 'lenient' }, bogus: 1 });
    expect(res.status).toBe(201);
    expect(res.headers.warning).toBe('299 - "unknown field \\"bogus\\""');
    expect(res.json().bogus).toBeUndefined();
  });

  it.each([
    ['POST', 'CreateOptions'],
    ['PUT', 'UpdateOptions'],
    ['PATCH', 'PatchOptions'],
  ])('an unknown fieldValidation on %s is 422 Invalid %s', async (method, options) => {
    const path = method === 'POST' ? cms() : `${cms()}/lenient`;
    const res = await target().http.request(method, `${path}?fieldValidation=Bogus&fieldManager=m`, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lenient' } },
      contentType: method === 'PATCH' ? 'application/apply-patch+yaml' : 'application/json',
    });
    const message = 'Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"';
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({
      message: `${options}.meta.k8s.io "" is invalid: fieldValidation: ${message}`,
      reason: 'Invalid',
      details: {
        group: 'meta.k8s.io',
        kind: options,
        causes: [{ reason: 'FieldValueNotSupported', message, field: 'fieldValidation' }],
      },
    });
  });

  it('fieldValidation=Ignore drops them silently', async () => {
    const res = await target().http.post(`${cms()}?fieldValidation=Ignore`, {
      metadata: { name: 'ignored' },
      bogus: 1,
    });
    expect(res.status).toBe(201);
    expect(res.headers.warning).toBeUndefined();
  });
});

describe('missing objects and garbage versions', () => {
  it('patching a missing object is 404 NotFound', async () => {
    const res = await target().http.patch(`${cms()}/missing`, 'application/merge-patch+json', {
      data: { a: 'b' },
    });
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({
      reason: 'NotFound',
      message: 'configmaps "missing" not found',
      details: { name: 'missing', kind: 'configmaps' },
    });
  });

  it('updating a missing configmap is 404 NotFound (no create-on-update), with or without a resourceVersion', async () => {
    for (const metadata of [{ name: 'absent', resourceVersion: '12' }, { name: 'absent' }]) {
      const res = await target().http.put(`${cms()}/absent`, { metadata });
      expect([res.status, res.json().message]).toEqual([404, 'configmaps "absent" not found']);
    }
  });

  // kube-apiserver 1.37 answers 500 with no reason here (kubernetes/kubernetes#139485, fix open in
  // #139525); the message is the parse error. The status is asserted as the real server gives it.
  it('a watch with a garbage resourceVersion is refused before streaming, with the parse error (500 as kube-apiserver 1.37)', async () => {
    const res = await target().http.watch(`${cms()}?watch=1&resourceVersion=abc`, () => false, 5_000);
    expect(res.status).toBe(500);
    expect(res.events).toEqual([]);
    expect(JSON.parse(res.text)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
      code: 500,
    });
  });

  it('a watch with resourceVersionMatch is 422 unless sendInitialEvents is set', async () => {
    const res = await target().http.get(
      `${cms()}?watch=1&resourceVersion=1&resourceVersionMatch=NotOlderThan`,
    );
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({
      reason: 'Invalid',
      details: {
        group: 'meta.k8s.io',
        kind: 'ListOptions',
        causes: [
          {
            reason: 'FieldValueForbidden',
            message:
              'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
            field: 'resourceVersionMatch',
          },
        ],
      },
    });
  });
});
