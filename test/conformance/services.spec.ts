import { useTarget } from './target.js';

/**
 * Service cluster IPs: allocated from the service CIDR on create, unique, kept across
 * updates that leave them out, immutable, released when the Service goes. The CIDR
 * itself differs between clusters, so no test names a range.
 */
const target = useTarget();
let ns: string;
beforeAll(async () => {
  ns = await target().namespace('svc');
});

const services = () => `/api/v1/namespaces/${ns}/services`;
const service = (name: string, spec: object = {}) => ({
  metadata: { name },
  spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
});

async function create(name: string, spec: object = {}): Promise<any> {
  const res = await target().http.post(services(), service(name, spec));
  expect([res.status, res.status === 201 ? '' : res.text]).toEqual([201, '']);
  return res.json();
}

/** The 422 kube answers when a cluster IP cannot be had. */
function allocationFailure(name: string, ip: string, why: string): object {
  const message = `Invalid value: ${JSON.stringify([ip])}: failed to allocate IP ${ip}: ${why}`;
  return {
    kind: 'Status',
    status: 'Failure',
    reason: 'Invalid',
    code: 422,
    message: `Service ${JSON.stringify(name)} is invalid: spec.clusterIPs: ${message}`,
    details: {
      name,
      kind: 'Service',
      causes: [{ reason: 'FieldValueInvalid', message, field: 'spec.clusterIPs' }],
    },
  };
}

describe('service cluster IPs', () => {
  it('every Service gets its own IP', async () => {
    const ips = await Promise.all(
      ['u1', 'u2', 'u3'].map(async (name) => (await create(name)).spec.clusterIP),
    );
    expect(new Set(ips).size).toBe(3);
  });

  it('the allocated fields belong to no manager: the field manager runs before the registry', async () => {
    const svc = await create('owned');
    expect(svc.metadata.managedFields).toHaveLength(1);
    expect(Object.keys(svc.metadata.managedFields[0].fieldsV1['f:spec']).sort()).toEqual([
      'f:internalTrafficPolicy',
      'f:ports',
      'f:selector',
      'f:sessionAffinity',
      'f:type',
    ]);
  });

  it("asking for another Service's IP is 422, and the IP is free again once that Service is deleted", async () => {
    const taken = (await create('holder')).spec.clusterIP;
    const res = await target().http.post(services(), service('taker', { clusterIP: taken }));
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject(allocationFailure('taker', taken, 'provided IP is already allocated'));
    expect((await target().http.delete(`${services()}/holder`)).status).toBe(200);
    const retried = await create('taker', { clusterIP: taken });
    expect(retried.spec).toMatchObject({ clusterIP: taken, clusterIPs: [taken] });
  });

  it('an IP outside every service CIDR is 422', async () => {
    const res = await target().http.post(services(), service('outside', { clusterIP: '192.0.2.10' }));
    expect(res.json()).toMatchObject(
      allocationFailure('outside', '192.0.2.10', 'the provided network does not match the current range'),
    );
  });

  it('an update that leaves the IP out keeps it; one that changes it is 422', async () => {
    const created = await create('keep');
    const ip = created.spec.clusterIP;
    const { clusterIP: _ip, clusterIPs: _ips, ...spec } = created.spec;
    const put = await target().http.put(`${services()}/keep`, { ...created, spec });
    expect(put.status).toBe(200);
    expect(put.json().spec).toMatchObject({ clusterIP: ip, clusterIPs: [ip] });
    const other = (await create('other')).spec.clusterIP;
    const moved = await target().http.patch(`${services()}/keep`, 'application/merge-patch+json', {
      spec: { clusterIP: other, clusterIPs: [other] },
    });
    expect(moved.status).toBe(422);
    expect(moved.json().details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify([other])}: may not change once set`,
        field: 'spec.clusterIPs[0]',
      },
    ]);
  });

  it('a headless Service gets no IP', async () => {
    const svc = await create('headless', { clusterIP: 'None' });
    expect(svc.spec).toMatchObject({
      clusterIP: 'None',
      clusterIPs: ['None'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    });
  });

  it('an ExternalName Service has no IP fields, and turning one into it releases its IP', async () => {
    const external = await create('alias', { type: 'ExternalName', externalName: 'db.example.com' });
    for (const key of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy'])
      expect([key, external.spec[key]]).toEqual([key, undefined]);
    const ip = (await create('becomes-alias')).spec.clusterIP;
    const patched = await target().http.patch(`${services()}/becomes-alias`, 'application/merge-patch+json', {
      spec: { type: 'ExternalName', externalName: 'db.example.com' },
    });
    expect(patched.status).toBe(200);
    expect(patched.json().spec.clusterIP).toBeUndefined();
    expect(patched.json().spec.internalTrafficPolicy).toBeUndefined();
    expect((await create('reuses', { clusterIP: ip })).spec.clusterIP).toBe(ip);
  });
});
