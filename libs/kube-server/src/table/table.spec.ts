/* eslint-disable @typescript-eslint/no-explicit-any -- Tables are read back cell by cell and column by column, at any depth */
import { CrdManager } from '../resources/crds.js';
import { humanDuration } from './duration.js';
import { evaluateJsonPath } from './jsonpath.js';
import { Registry } from '../resources/registry.js';
import { BUILTIN_RESOURCES, type ResourceInfo } from '../resources/builtin.js';
import { type StoredObject } from '#kube-core';
import { columnsFor, toTable } from './table.js';

const info = (kind: string) => BUILTIN_RESOURCES.find((r) => r.kind === kind && !r.storage) as ResourceInfo;
const crds = new CrdManager(new Registry(), () => undefined);
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

describe('JSONPath for printer columns', () => {
  const obj = {
    spec: { size: 3, tags: ['a', 'b'], 'x.y': 'dotted' },
    status: {
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'Synced', status: 'False' },
      ],
    },
  };
  it.each([
    ['.spec.size', [3]],
    ['.spec.tags[1]', ['b']],
    ['.spec.tags[*]', ['a', 'b']],
    ['.status.conditions[?(@.type=="Synced")].status', ['False']],
    [".spec['x.y']", ['dotted']],
    ['.spec.missing', []],
  ])('%s', (path, expected) => {
    expect(evaluateJsonPath(obj, path)).toEqual(expected);
  });
});

describe('humanDuration (the AGE column)', () => {
  it.each([
    [5_000, '5s'],
    [119_000, '119s'],
    [125_000, '2m5s'],
    [30 * 60_000, '30m'],
    [4 * 3600_000 + 5 * 60_000, '4h5m'],
    [30 * 3600_000, '30h'],
    [3 * 86400_000 + 2 * 3600_000, '3d2h'],
    [40 * 86400_000, '40d'],
  ])('%d ms → %s', (ms, text) => expect(humanDuration(ms)).toBe(text));
});

describe('Table output', () => {
  it('prints a Deployment like kubectl, wide columns at priority 1', () => {
    const deploy = {
      kind: 'Deployment',
      metadata: { name: 'web', creationTimestamp: minutesAgo(3) },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: { spec: { containers: [{ name: 'main', image: 'nginx:1' }] } },
      },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    } as StoredObject;
    const table = toTable(columnsFor(info('Deployment'), crds), [deploy], { resourceVersion: '9' }) as any;
    expect(table.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Ready:0',
      'Up-to-date:0',
      'Available:0',
      'Age:0',
      'Containers:1',
      'Images:1',
      'Selector:1',
    ]);
    expect(table.rows[0].cells).toEqual(['web', '2/3', 3, 2, '3m', 'main', 'nginx:1', 'app=web']);
    expect(table.rows[0].object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: deploy.metadata,
    });
  });

  it("uses a CRD version's additionalPrinterColumns", () => {
    const registry = new Registry();
    const manager = new CrdManager(registry, () => undefined);
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { kind: 'Widget', plural: 'widgets' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            additionalPrinterColumns: [
              { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
              { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
            ],
          },
        ],
      },
    };
    const events: Array<(e: any) => void> = [];
    manager.attach({ list: () => [{ object: crd }], onWrite: (l: any) => events.push(l) } as any);
    const widget = registry.find('example.com', 'v1', 'widgets') as ResourceInfo;
    const obj = {
      metadata: { name: 'w' },
      spec: { size: 4 },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    } as StoredObject;
    const table = toTable(columnsFor(widget, manager), [obj], {}) as any;
    expect(table.columnDefinitions.map((c: any) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Size', 'integer'],
      ['Ready', 'string'],
    ]);
    expect(table.columnDefinitions[1].description).toBe(
      'Custom resource definition column (in JSONPath format): .spec.size',
    );
    expect(table.rows[0].cells).toEqual(['w', 4, 'True']);
  });

  it('falls back to Name and Created At for kinds without a printer', () => {
    const table = toTable(
      columnsFor(info('Role'), crds),
      [{ metadata: { name: 'r', creationTimestamp: '2026-01-01T00:00:00Z' } }],
      {},
      { includeObject: 'None' },
    ) as any;
    expect(table.rows[0]).toEqual({ cells: ['r', '2026-01-01T00:00:00Z'] });
  });
});

describe('pod and job rows as printers.go prints them', () => {
  const row = (kind: string, obj: object) =>
    (toTable(columnsFor(info(kind), crds), [obj as StoredObject], {}) as any).rows[0].cells;
  const pod = (status: object, meta: object = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', creationTimestamp: minutesAgo(5), ...meta },
    spec: { containers: [{ name: 'c', image: 'busybox' }] },
    status,
  });
  const container = (state: object, extra: object = {}) => ({
    containerStatuses: [{ name: 'c', image: 'busybox', ready: false, restartCount: 0, state, ...extra }],
  });

  it.each([
    [
      'Completed',
      pod({ phase: 'Succeeded', ...container({ terminated: { exitCode: 0, reason: 'Completed' } }) }),
    ],
    [
      'ContainerCreating',
      pod({ phase: 'Pending', ...container({ waiting: { reason: 'ContainerCreating' } }) }),
    ],
    ['Error', pod({ phase: 'Failed', ...container({ terminated: { exitCode: 1, reason: 'Error' } }) })],
    ['ExitCode:2', pod({ phase: 'Failed', ...container({ terminated: { exitCode: 2 } }) })],
    ['Terminating', pod({ phase: 'Running' }, { deletionTimestamp: minutesAgo(0) })],
    ['Evicted', pod({ phase: 'Failed', reason: 'Evicted' })],
    [
      'Init:0/1',
      {
        ...pod({ phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { running: {} } }] }),
        spec: { initContainers: [{ name: 'i' }], containers: [{ name: 'c' }] },
      },
    ],
  ])('STATUS %s', (status, obj) => {
    expect(row('Pod', obj)[2]).toBe(status);
  });

  it('CrashLoopBackOff with restarts and when the last one was', () => {
    const cells = row(
      'Pod',
      pod({
        phase: 'Running',
        ...container(
          { waiting: { reason: 'CrashLoopBackOff' } },
          { restartCount: 3, lastState: { terminated: { exitCode: 1, finishedAt: minutesAgo(2) } } },
        ),
      }),
    );
    expect(cells.slice(1, 4)).toEqual(['0/1', 'CrashLoopBackOff', '3 (2m ago)']);
  });

  it('a completed job lasts from startTime to completionTime', () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', creationTimestamp: minutesAgo(60) },
      spec: { completions: 1, template: { spec: { containers: [] } } },
      status: {
        succeeded: 1,
        startTime: minutesAgo(50),
        completionTime: minutesAgo(45),
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    };
    expect(row('Job', job).slice(0, 4)).toEqual(['j', 'Complete', '1/1', '5m']);
    const running = { ...job, status: { startTime: minutesAgo(50) }, spec: { parallelism: 2, template: {} } };
    expect(row('Job', running).slice(0, 4)).toEqual(['j', 'Running', '0/1 of 2', '50m']);
  });
});
