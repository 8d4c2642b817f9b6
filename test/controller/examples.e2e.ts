import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '#definitions';
import { type KubeObject } from '#kube-core';
import { ControllerCluster } from './harness.js';

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

// examples/split-roles uses standalone Components and Traits: the next issue's.
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
});
