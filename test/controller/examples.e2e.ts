import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '#definitions';
import { type KubeObject } from '#kube-core';
import { ControllerCluster } from './harness.js';
import { ensureBuilt } from '../support/build.js';

// Handlebars templates render in worker threads that run the compiled engine from dist/.
beforeAll(() => ensureBuilt(projectRoot()), 240_000);

let cluster: ControllerCluster;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/** Every object of an example folder, moved into `namespace`. */
function example(folder: string, file: string, namespace: string): KubeObject[] {
  const text = readFileSync(join(projectRoot(), 'examples', folder, file), 'utf8');
  return parseAllDocuments(text)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null)
    .map((o) => ({ ...o, metadata: { ...o.metadata, namespace } }));
}

describe('the examples run', () => {
  it.each([
    ['multi-component', ['app.yaml']],
    ['handlebars', ['definition.yaml', 'app.yaml']],
  ])('examples/%s becomes healthy, every component reported', async (folder, files) => {
    const ns = await cluster.namespace(folder);
    const objects = files.flatMap((f) => example(folder, f, ns));
    for (const obj of objects) {
      const c = await cluster.resource(obj);
      await c.apply(obj, { fieldManager: 'e2e-user', force: true });
    }
    const app = objects.find((o) => o.kind === 'Application')!;
    const done = await cluster.appStatus(
      ns,
      app.metadata!.name!,
      (s) => s.status === 'running',
      `examples/${folder} to be running`,
    );
    const components = (app.spec as { components: { name: string }[] }).components.map((c) => c.name);
    const services = (done.status as { services: { name: string; healthy: boolean }[] }).services;
    expect(services.map((s) => s.name)).toEqual(components);
    expect(services.every((s) => s.healthy)).toBe(true);
  });

  it.each([
    ['standalone', ['component.yaml', 'traits.yaml']],
    ['split-roles', ['component.yaml', 'traits.yaml']],
  ])('examples/%s: the Component runs on its own with the operator’s Traits', async (folder, files) => {
    const ns = await cluster.namespace(folder);
    const objects = files.flatMap((f) => example(folder, f, ns));
    for (const obj of objects) {
      const c = await cluster.resource(obj);
      await c.apply(obj, { fieldManager: 'e2e-user', force: true });
    }
    const component = objects.find((o) => o.kind === 'Component')!;
    const name = component.metadata!.name!;
    const traits = objects.filter((o) => o.kind === 'Trait').map((t) => (t.spec as { type: string }).type);
    const done = await cluster.oamStatus(
      'Component',
      ns,
      name,
      (s) => s.status === 'running' && s.services[0]?.traits?.length === traits.length,
      `examples/${folder} to be running with its traits`,
    );
    const service = (done.status as { services: { healthy: boolean; traits: { type: string }[] }[] })
      .services[0];
    expect(service.healthy).toBe(true);
    expect(service.traits.map((t) => t.type).sort()).toEqual([...traits].sort());
    expect(await cluster.get('autoscaling/v2', 'HorizontalPodAutoscaler', ns, name)).toBeDefined();
    expect(await cluster.get('networking.k8s.io/v1', 'Ingress', ns, name)).toBeDefined();
  });
});
