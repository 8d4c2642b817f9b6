import { BUILTIN_KINDS, unknownFields, validateBuiltin } from './index.js';
import { podSpec, service, validObjects } from './testing/fixtures.js';
import { BUILTIN_RESOURCES } from '../resources/builtin.js';

const core = (kind: string) => ({ group: '', version: 'v1', kind });

describe('validateBuiltin: every served kind', () => {
  it.each(validObjects())('accepts a valid %s/%s %s', (group, version, kind, obj) => {
    expect(validateBuiltin({ group, version, kind }, obj)).toEqual([]);
  });

  it('covers every kind of the registry with a fixture', () => {
    const covered = new Set(validObjects().map(([g, v, k]) => `${g}/${v}/${k}`));
    const extras = ['/v1/Endpoints', 'apps/v1/ControllerRevision', 'networking.k8s.io/v1/IngressClass'];
    const missing = BUILTIN_KINDS.map((b) => `${b.group}/${b.version}/${b.kind}`).filter(
      (id) =>
        !covered.has(id) &&
        !extras.includes(id) &&
        !id.startsWith('networking.k8s.io/v1/Network') &&
        !id.startsWith('policy/'),
    );
    expect(missing).toEqual([]);
  });

  it('has a schema for every built-in kind the server serves', () => {
    const validated = new Set(BUILTIN_KINDS.map((b) => `${b.group}/${b.version}/${b.kind}`));
    const served = BUILTIN_RESOURCES.map((r) => `${r.group}/${r.version}/${r.kind}`);
    expect(served.filter((id) => !validated.has(id))).toEqual([]);
  });

  it('checks Nodes and EndpointSlices against their schemas too', () => {
    const slice = { group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice' };
    expect(validateBuiltin(slice, { metadata: { name: 's' }, endpoints: [] })).toEqual([
      { field: 'addressType', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
    expect(
      validateBuiltin(core('Node'), { metadata: { name: 'n' }, spec: { unschedulable: 'yes' } }),
    ).toEqual([
      {
        field: 'spec.unschedulable',
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "string": spec.unschedulable in body must be of type boolean: "string"',
      },
    ]);
    expect(unknownFields(core('Node'), { metadata: { name: 'n' }, spec: { foo: 1 } })).toEqual(['spec.foo']);
  });

  it('refuses to guess for a kind it has no schema for', () => {
    expect(() => validateBuiltin({ group: 'example.com', version: 'v1', kind: 'Widget' }, {})).toThrow(
      'no built-in schema for kind Widget in example.com/v1',
    );
  });

  it('never mutates its input', () => {
    const obj = service();
    const before = JSON.stringify(obj);
    validateBuiltin(core('Service'), obj);
    unknownFields(core('Service'), obj);
    expect(JSON.stringify(obj)).toBe(before);
  });
});

describe('validateBuiltin: schema errors in kube form', () => {
  it('reports a wrong type once, with kube-openapi wording', () => {
    const svc = service();
    svc.spec.ports[0].port = '80';
    expect(validateBuiltin(core('Service'), svc)).toEqual([
      {
        field: 'spec.ports[0].port',
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "string": spec.ports[0].port in body must be of type integer: "string"',
      },
    ]);
  });

  it('reports an enum violation as Unsupported value', () => {
    const svc = service();
    svc.spec.type = 'Bogus';
    expect(validateBuiltin(core('Service'), svc)).toEqual([
      {
        field: 'spec.type',
        reason: 'FieldValueNotSupported',
        message:
          'Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      },
    ]);
  });

  it('reports a malformed resource quantity once', () => {
    const spec = podSpec();
    (spec.containers[0] as Record<string, unknown>).resources = { limits: { memory: 'lots' } };
    expect(validateBuiltin(core('Pod'), { metadata: { name: 'p' }, spec })).toEqual([
      {
        field: 'spec.containers[0].resources.limits.memory',
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: "lots": quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
      },
    ]);
  });
});

describe('validateBuiltin: metadata', () => {
  it('checks label keys and values on metadata.labels', () => {
    const causes = validateBuiltin(core('ConfigMap'), {
      metadata: { name: 'c', labels: { 'bad key!': 'x', ok: '-bad' } },
    });
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      "metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "metadata.labels: Invalid value: \"-bad\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
  });

  it('checks annotation key prefixes', () => {
    const causes = validateBuiltin(core('ConfigMap'), {
      metadata: { name: 'c', annotations: { 'Bad_Prefix/x': 'v' } },
    });
    expect(causes).toHaveLength(1);
    expect(causes[0].field).toBe('metadata.annotations');
    expect(causes[0].message).toMatch(
      /^Invalid value: "Bad_Prefix\/x": prefix part a lowercase RFC 1123 subdomain/,
    );
  });
});

describe('validateBuiltin: ConfigMap and Secret keys', () => {
  it('rejects bad data keys on the key path', () => {
    expect(
      validateBuiltin(core('ConfigMap'), { metadata: { name: 'c' }, data: { 'a b': '1', '..x': '2' } }),
    ).toEqual([
      {
        field: 'data[a b]',
        reason: 'FieldValueInvalid',
        message:
          "Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      },
      {
        field: 'data[..x]',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "..x": must not start with \'..\'',
      },
    ]);
  });

  it('rejects a binaryData key that repeats a data key', () => {
    const causes = validateBuiltin(core('ConfigMap'), {
      metadata: { name: 'c' },
      data: { k: 'v' },
      binaryData: { k: 'AA==' },
    });
    expect(causes).toEqual([
      {
        field: 'binaryData[k]',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "k": duplicate of key present in data',
      },
    ]);
  });

  it('rejects secret data that is not base64 and stringData keys that are invalid', () => {
    const causes = validateBuiltin(core('Secret'), {
      metadata: { name: 's' },
      data: { a: 'not base64!' },
      stringData: { 'x/y': 'v' },
    });
    expect(causes.map((c) => c.field)).toEqual(['data.a', 'data[x/y]']);
    expect(causes[0].message).toBe(
      'Invalid value: "not base64!": data.a in body must be of type byte: "not base64!"',
    );
  });

  it('requires the keys of typed secrets', () => {
    const causes = validateBuiltin(core('Secret'), {
      metadata: { name: 't' },
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': 'AA==' },
    });
    expect(causes).toEqual([
      { field: 'data[tls.key]', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
  });
});

describe('validateBuiltin: Service', () => {
  const svc = (spec: Record<string, unknown>) => ({ metadata: { name: 's' }, spec });

  it('requires ports, unless headless or ExternalName', () => {
    expect(validateBuiltin(core('Service'), svc({ selector: { app: 'a' } }))).toEqual([
      { field: 'spec.ports', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
    expect(validateBuiltin(core('Service'), svc({ clusterIP: 'None' }))).toEqual([]);
    expect(
      validateBuiltin(core('Service'), svc({ type: 'ExternalName', externalName: 'db.example.com' })),
    ).toEqual([]);
    expect(validateBuiltin(core('Service'), svc({ type: 'ExternalName' }))).toEqual([
      { field: 'spec.externalName', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
  });

  it('requires names on multiple ports, unique, and ports in range', () => {
    const causes = validateBuiltin(
      core('Service'),
      svc({
        ports: [{ port: 80 }, { name: 'a', port: 70000 }, { name: 'a', port: 81, targetPort: 'Http_' }],
      }),
    );
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.ports[0].name: Required value',
      'spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[2].name: Duplicate value: "a"',
      'spec.ports[2].targetPort: Invalid value: "Http_": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ]);
  });

  it('forbids a nodePort on a ClusterIP service', () => {
    expect(validateBuiltin(core('Service'), svc({ ports: [{ port: 80, nodePort: 30080 }] }))).toEqual([
      {
        field: 'spec.ports[0].nodePort',
        reason: 'FieldValueForbidden',
        message: "Forbidden: may not be used when `type` is 'ClusterIP'",
      },
    ]);
  });
});

describe('validateBuiltin: Pod and Namespace', () => {
  it('requires containers, names, images, and unique DNS-label names', () => {
    const causes = validateBuiltin(core('Pod'), {
      metadata: { name: 'p' },
      spec: {
        containers: [
          { name: 'Web', image: 'a' },
          { name: 'db' },
          { name: 'db', image: 'b', ports: [{ containerPort: 0 }] },
        ],
      },
    });
    expect(causes.map((c) => `${c.field}: ${c.message.split(' (e.g.')[0]}`)).toEqual([
      'spec.containers[0].name: Invalid value: "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character',
      'spec.containers[1].image: Required value',
      'spec.containers[2].name: Duplicate value: "db"',
      'spec.containers[2].ports[0].containerPort: Required value',
    ]);
    expect(validateBuiltin(core('Pod'), { metadata: { name: 'p' }, spec: { containers: [] } })).toEqual([
      { field: 'spec.containers', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
  });

  it('requires volume mounts to name a volume of the pod', () => {
    const spec = podSpec();
    (spec.containers[0] as Record<string, unknown>).volumeMounts = [
      { name: 'data', mountPath: '/data' },
      { name: 'cache' },
    ];
    const pod = { metadata: { name: 'p' }, spec: { ...spec, volumes: [{ name: 'data', emptyDir: {} }] } };
    expect(validateBuiltin(core('Pod'), pod)).toEqual([
      {
        field: 'spec.containers[0].volumeMounts[1].name',
        reason: 'FieldValueNotFound',
        message: 'Not found: "cache"',
      },
      {
        field: 'spec.containers[0].volumeMounts[1].mountPath',
        reason: 'FieldValueRequired',
        message: 'Required value',
      },
    ]);
  });

  it('requires requests not to exceed limits, comparing quantities by value', () => {
    const spec = podSpec();
    (spec.containers[0] as Record<string, unknown>).resources = {
      requests: { cpu: '1500m', memory: '1Gi' },
      limits: { cpu: '1', memory: '1024Mi' },
    };
    expect(validateBuiltin(core('Pod'), { metadata: { name: 'p' }, spec })).toEqual([
      {
        field: 'spec.containers[0].resources.requests',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "1500m": must be less than or equal to cpu limit of 1',
      },
    ]);
  });

  it('rejects a namespace with a non-string label value', () => {
    expect(validateBuiltin(core('Namespace'), { metadata: { name: 'n', labels: { team: 7 } } })).toEqual([
      {
        field: 'metadata.labels.team',
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "integer": metadata.labels.team in body must be of type string: "integer"',
      },
    ]);
  });
});

describe('unknownFields', () => {
  it('lists fields the schema does not define, with kube paths', () => {
    const svc = service();
    svc.spec.foo = 1;
    svc.spec.ports[0].bar = true;
    svc.metadata.colour = 'red';
    expect(unknownFields(core('Service'), svc)).toEqual(['metadata.colour', 'spec.ports[0].bar', 'spec.foo']);
  });

  it('finds nothing in valid objects of every kind and stops at free-form fields', () => {
    for (const [group, version, kind, obj] of validObjects()) {
      expect([kind, unknownFields({ group, version, kind }, obj)]).toEqual([kind, []]);
    }
    const crd = validObjects().find(([, , kind]) => kind === 'CustomResourceDefinition')![3];
    crd.spec.versions[0].schema.openAPIV3Schema.properties = {
      spec: { type: 'object', default: { any: { thing: 1 } } },
    };
    expect(
      unknownFields({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' }, crd),
    ).toEqual([]);
  });
});
