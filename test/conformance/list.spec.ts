import { useTarget } from './target.js';

/** Lists: selectors, paging, resourceVersion semantics. */
const target = useTarget();
let ns: string;
let otherNs: string;
// A real cluster adds kube-root-ca.crt to every namespace: lists select the fixtures by this label.
const SET = 'set=list';
const cmList = (query: string) => `/api/v1/namespaces/${ns}/configmaps?${query}`;
const setList = (query: string) =>
  cmList(`labelSelector=${encodeURIComponent(SET)}${query ? `&${query}` : ''}`);

// name → labels; every operator of the label selector grammar is checked against these.
const fixtures: Record<string, Record<string, string>> = {
  a: { env: 'prod', tier: 'web' },
  b: { env: 'prod', tier: 'db' },
  c: { env: 'dev', tier: 'web' },
  d: { env: 'test' },
  e: {},
};

beforeAll(async () => {
  ns = await target().namespace('list');
  otherNs = await target().namespace('list-other');
  for (const [name, labels] of Object.entries(fixtures)) {
    await target().core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name, labels: { ...labels, set: 'list' } } },
    });
  }
  await target().core.createNamespacedConfigMap({
    namespace: otherNs,
    body: { metadata: { name: 'a', labels: { env: 'prod', set: 'list' } } },
  });
});

/** Names of the fixtures matching the query (the `set` label is ANDed in, as a real cluster adds objects). */
async function names(query: string): Promise<string[]> {
  const res = await target().http.get(cmList(query));
  if (res.status !== 200) throw new Error(`list ?${query}: ${res.status} ${res.text}`);
  return res.json().items.map((i: any) => i.metadata.name);
}

describe('labelSelector', () => {
  it.each([
    ['env=prod', ['a', 'b']],
    ['env==prod', ['a', 'b']],
    ['env!=prod', ['c', 'd', 'e']],
    ['env in (dev,test)', ['c', 'd']],
    ['env notin (prod)', ['c', 'd', 'e']],
    ['tier', ['a', 'b', 'c']],
    ['!tier', ['d', 'e']],
    ['env=prod,tier=web', ['a']],
    ['env in (prod,dev),tier notin (db)', ['a', 'c']],
    ['env=nothing', []],
  ])('%s', async (selector, expected) => {
    expect(await names(`labelSelector=${encodeURIComponent(`${SET},${selector}`)}`)).toEqual(expected);
  });

  it('a malformed selector is 400 BadRequest', async () => {
    const res = await target().http.get(cmList(`labelSelector=${encodeURIComponent('env in (prod')}`));
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'BadRequest' });
    expect(res.json().message).toContain('unable to parse requirement');
  });

  it('is also honoured by the typed client across all namespaces', async () => {
    const all = await target().core.listConfigMapForAllNamespaces({ labelSelector: 'env=prod' });
    const mine = all.items
      .filter((i) => [ns, otherNs].includes(i.metadata!.namespace!))
      .map((i) => `${i.metadata!.namespace}/${i.metadata!.name}`)
      .sort();
    expect(mine).toEqual([`${ns}/a`, `${ns}/b`, `${otherNs}/a`].sort());
  });
});

describe('fieldSelector', () => {
  it('metadata.name with = and !=', async () => {
    expect(await names(`fieldSelector=metadata.name%3Db&labelSelector=${SET}`)).toEqual(['b']);
    expect(await names(`fieldSelector=metadata.name!%3Db&labelSelector=${SET}`)).toEqual([
      'a',
      'c',
      'd',
      'e',
    ]);
  });

  it('metadata.namespace across namespaces', async () => {
    const res = await target().http.get(
      `/api/v1/configmaps?fieldSelector=metadata.namespace%3D${otherNs}&labelSelector=${SET}`,
    );
    expect(res.json().items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual([
      `${otherNs}/a`,
    ]);
  });

  it('combines with a label selector', async () => {
    expect(await names('fieldSelector=metadata.name!%3Da&labelSelector=env%3Dprod')).toEqual(['b']);
  });

  it('pod fields kubectl uses (spec.nodeName, status.phase)', async () => {
    const core = target().core;
    const pod = (name: string, nodeName?: string) => ({
      metadata: { name },
      spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'busybox' }] },
    });
    await core.createNamespacedPod({ namespace: otherNs, body: pod('on-node', 'no-such-node') });
    await core.createNamespacedPod({ namespace: otherNs, body: pod('unscheduled') });
    const onNode = await core.listNamespacedPod({
      namespace: otherNs,
      fieldSelector: 'spec.nodeName=no-such-node',
    });
    expect(onNode.items.map((p) => p.metadata!.name)).toEqual(['on-node']);
    const notSucceeded = await core.listNamespacedPod({
      namespace: otherNs,
      fieldSelector: 'status.phase!=Succeeded',
    });
    expect(notSucceeded.items.map((p) => p.metadata!.name).sort()).toEqual(['on-node', 'unscheduled']);
  });

  it('an unknown field is 400 BadRequest naming the supported ones', async () => {
    const res = await target().http.get(cmList('fieldSelector=data.x%3Dy'));
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      reason: 'BadRequest',
      message: '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    });
  });
});

describe('limit and continue', () => {
  it('pages through every object once, in name order, with remainingItemCount', async () => {
    const seen: string[] = [];
    let token = '';
    const pages: any[] = [];
    do {
      const res = await target().http.get(
        setList(`limit=2${token ? `&continue=${encodeURIComponent(token)}` : ''}`),
      );
      expect(res.status).toBe(200);
      const page = res.json();
      pages.push(page);
      seen.push(...page.items.map((i: any) => i.metadata.name));
      token = page.metadata.continue ?? '';
    } while (token && pages.length < 10);
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
    // ListMeta docs: remainingItemCount is not set when the list has a label or field selector.
    expect(pages[0].metadata.remainingItemCount).toBeUndefined();
    expect(pages[2].metadata.continue).toBeUndefined();
    // Every page is served from the snapshot of the first one.
    expect(new Set(pages.map((p) => p.metadata.resourceVersion)).size).toBe(1);
  });

  it('without a selector, remainingItemCount counts what the later pages hold', async () => {
    const total = (await target().http.get(cmList(''))).json().items.length;
    const page = (await target().http.get(cmList('limit=2'))).json();
    expect(page.items).toHaveLength(2);
    expect(page.metadata.remainingItemCount).toBe(total - 2);
    expect(typeof page.metadata.continue).toBe('string');
  });

  it('later pages do not see objects created after the first page', async () => {
    const first = (await target().http.get(setList('limit=2'))).json();
    await target().core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'zz-late', labels: { set: 'list' } } },
    });
    const rest = (
      await target().http.get(setList(`limit=10&continue=${encodeURIComponent(first.metadata.continue)}`))
    ).json();
    expect(rest.items.map((i: any) => i.metadata.name)).toEqual(['c', 'd', 'e']);
    expect((await names('')).includes('zz-late')).toBe(true);
    await target().core.deleteNamespacedConfigMap({ namespace: ns, name: 'zz-late' });
  });

  it('a garbage continue token is 400 BadRequest', async () => {
    const res = await target().http.get(cmList('limit=1&continue=garbage'));
    expect(res.status).toBe(400);
    expect(res.json().reason).toBe('BadRequest');
  });
});

describe('resourceVersion on list', () => {
  it('the list resourceVersion is at least that of every item and of the last write', async () => {
    const written = await target().core.createNamespacedConfigMap({
      namespace: otherNs,
      body: { metadata: { generateName: 'rv-' } },
    });
    const list = (await target().http.get(`/api/v1/namespaces/${otherNs}/configmaps`)).json();
    const listRv = BigInt(list.metadata.resourceVersion);
    expect(listRv).toBeGreaterThanOrEqual(BigInt(written.metadata!.resourceVersion!));
    for (const item of list.items)
      expect(listRv).toBeGreaterThanOrEqual(BigInt(item.metadata.resourceVersion));
    expect(list.items.map((i: any) => i.metadata.name)).toContain(written.metadata!.name);
  });

  it('resourceVersion=0 serves any recent state', async () => {
    const res = await target().http.get(cmList('resourceVersion=0'));
    expect(res.status).toBe(200);
    expect(res.json().kind).toBe('ConfigMapList');
  });

  it('a resourceVersion from the future is 504 Timeout "Too large resource version" (after a short wait)', async () => {
    const res = await target().http.get(cmList('resourceVersion=999999999999'));
    expect(res.status).toBe(504);
    expect(res.json()).toMatchObject({
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] },
    });
    expect(res.json().message).toMatch(/^Timeout: Too large resource version: 999999999999, current: \d+$/);
  }, 15_000);

  it('a get at a resourceVersion from the future is 504 Timeout "Too large resource version" too (after a short wait)', async () => {
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    await target().http.post(cms, { metadata: { name: 'future-get' } });
    const res = await target().http.get(`${cms}/future-get?resourceVersion=999999999999`);
    expect(res.status).toBe(504);
    expect(res.json()).toMatchObject({
      reason: 'Timeout',
      details: {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      },
    });
    expect(res.json().message).toMatch(/^Timeout: Too large resource version: 999999999999, current: \d+$/);
  }, 15_000);

  it('a garbage resourceVersion is 400 BadRequest with the parse error', async () => {
    const res = await target().http.get(cmList('resourceVersion=abc'));
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      reason: 'BadRequest',
      message:
        'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    });
  });
});

describe('resourceVersionMatch on list', () => {
  const invalid = async (query: string) => {
    const res = await target().http.get(cmList(query));
    expect(res.status).toBe(422);
    const status = res.json();
    expect(status).toMatchObject({
      reason: 'Invalid',
      details: { group: 'meta.k8s.io', kind: 'ListOptions' },
    });
    return status;
  };

  it('without a resourceVersion is 422 Forbidden', async () => {
    const status = await invalid('resourceVersionMatch=NotOlderThan');
    expect(status.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
    expect(status.details.causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        field: 'resourceVersionMatch',
      },
    ]);
  });

  it('Exact with resourceVersion=0 is 422 Forbidden', async () => {
    const status = await invalid('resourceVersionMatch=Exact&resourceVersion=0');
    expect(status.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    );
  });

  it('an unknown match is 422 Unsupported value', async () => {
    const status = await invalid('resourceVersionMatch=Newest&resourceVersion=1');
    expect(status.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
    );
    expect(status.details.causes[0].reason).toBe('FieldValueNotSupported');
  });

  it('several problems are listed together', async () => {
    const status = await invalid('resourceVersionMatch=Newest');
    expect(status.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""]',
    );
  });

  it('NotOlderThan with a resourceVersion lists', async () => {
    const res = await target().http.get(cmList('resourceVersionMatch=NotOlderThan&resourceVersion=0'));
    expect(res.status).toBe(200);
  });
});
