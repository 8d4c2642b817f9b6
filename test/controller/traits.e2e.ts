import { eventually, type KubeObject } from '#kube-core';
import { afterCreationSecond, condition, ControllerCluster, trait, webComponent } from './harness.js';

let cluster: ControllerCluster;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const managersOfReplicas = (d: KubeObject | undefined) =>
  ((d?.metadata?.managedFields ?? []) as { manager: string; fieldsV1?: any }[])
    .filter((m) => m.fieldsV1?.['f:spec']?.['f:replicas'] !== undefined)
    .map((m) => m.manager)
    .sort();

const gone = (apiVersion: string, kind: string, ns: string, name: string) =>
  eventually(
    async () => ((await cluster.get(apiVersion, kind, ns, name)) ? undefined : true),
    `${kind} "${name}" to be deleted`,
  );

/** Waits for a Trait's condition of `type` to have `status` (and reason, when given); returns the condition. */
const traitCondition = async (ns: string, name: string, type: string, status: string, reason?: string) =>
  condition(
    (
      await cluster.oamStatus(
        'Trait',
        ns,
        name,
        (s, t) =>
          s.observedGeneration === t.metadata?.generation &&
          condition(s, type)?.status === status &&
          (reason === undefined || condition(s, type)?.reason === reason),
        `Trait "${name}" to have ${type}=${status}${reason ? ` (${reason})` : ''}`,
      )
    ).status as any,
    type,
  )!;

describe('standalone Traits', () => {
  it('the operator adds an HPA and later a gateway to the developer’s Component; deleting one removes exactly what it added', async () => {
    const ns = await cluster.namespace('ops');
    await cluster.applyObject(webComponent(ns, 'web'));
    await cluster.oamStatus('Component', ns, 'web', (s) => s.status === 'running', 'the Component to run');
    const uid = (await cluster.get('apps/v1', 'Deployment', ns, 'web'))!.metadata!.uid;

    await cluster.applyObject(
      trait(
        ns,
        'web-hpa',
        'hpa',
        { component: 'web' },
        { min: 1, max: 5, cpu: { type: 'Utilization', value: 80 } },
      ),
      'operator',
    );
    await eventually(
      () => cluster.get('autoscaling/v2', 'HorizontalPodAutoscaler', ns, 'web'),
      'the HPA to appear',
    );
    // The HPA owns replicas: the controller hands spec.replicas over and stops applying it.
    const handed = await eventually(async () => {
      const d = await cluster.get('apps/v1', 'Deployment', ns, 'web');
      return managersOfReplicas(d).includes('oam-controller') ? undefined : d;
    }, 'spec.replicas to be handed over to the HPA');
    expect(managersOfReplicas(handed)).toEqual(['oam-controller-handover']);
    expect(await traitCondition(ns, 'web-hpa', 'Accepted', 'True')).toMatchObject({
      message: 'on Component "web", component "web"',
    });
    await traitCondition(ns, 'web-hpa', 'Applied', 'True');
    const hpaTrait = await cluster.get('core.oam.dev/v1beta1', 'Trait', ns, 'web-hpa');
    expect((hpaTrait!.status as any).renderedBy).toEqual({
      kind: 'Component',
      name: 'web',
      component: 'web',
    });

    // The HPA scales through the scale subresource; later renders leave replicas alone.
    const deployments = await cluster.resource({ apiVersion: 'apps/v1', kind: 'Deployment' });
    await deployments.patch(
      ns,
      'web',
      { spec: { replicas: 3 } },
      { type: 'merge', subresource: 'scale', fieldManager: 'horizontal-pod-autoscaler' },
    );

    await cluster.applyObject(
      trait(
        ns,
        'web-gateway',
        'gateway',
        { component: 'web' },
        { domain: 'web.example.com', http: { '/': 8000 } },
      ),
      'operator',
    );
    const ingress = await eventually(
      () => cluster.get('networking.k8s.io/v1', 'Ingress', ns, 'web'),
      'the Ingress to appear',
    );
    expect((ingress.spec as any).rules[0].host).toBe('web.example.com');
    await cluster.oamStatus(
      'Component',
      ns,
      'web',
      (s) => s.status === 'running' && s.services[0].traits?.length === 2,
      'the Component to report both traits healthy',
    );
    expect(((await cluster.get('apps/v1', 'Deployment', ns, 'web'))!.spec as any).replicas).toBe(3);

    // A patch trait too, to see its removal.
    await cluster.applyObject(
      trait(ns, 'web-labels', 'labels', { component: 'web' }, { team: 'ops' }),
      'operator',
    );
    await eventually(async () => {
      const d = await cluster.get('apps/v1', 'Deployment', ns, 'web');
      return d?.metadata?.labels?.team === 'ops' ? d : undefined;
    }, 'the labels patch on the Deployment');

    await cluster.deleteObject(trait(ns, 'web-gateway', 'gateway', { component: 'web' }));
    await gone('networking.k8s.io/v1', 'Ingress', ns, 'web');
    await cluster.deleteObject(trait(ns, 'web-labels', 'labels', { component: 'web' }));
    const unpatched = await eventually(async () => {
      const d = await cluster.get('apps/v1', 'Deployment', ns, 'web');
      return d && d.metadata?.labels?.team === undefined ? d : undefined;
    }, 'the labels patch to be removed from the Deployment');
    expect((unpatched.spec as any).template.metadata.labels.team).toBeUndefined();
    // Nothing else went: same Deployment, its Service, the HPA, the HPA's replicas.
    expect(unpatched.metadata!.uid).toBe(uid);
    expect((unpatched.spec as any).replicas).toBe(3);
    expect(await cluster.get('v1', 'Service', ns, 'web')).toBeDefined();
    expect(await cluster.get('autoscaling/v2', 'HorizontalPodAutoscaler', ns, 'web')).toBeDefined();
    const component = await cluster.oamStatus(
      'Component',
      ns,
      'web',
      (s) => s.status === 'running' && s.appliedResources.length === 3,
      'the Component to hold the Deployment, Service and HPA',
    );
    expect((component.status as any).appliedResources.map((r: any) => r.kind).sort()).toEqual([
      'Deployment',
      'HorizontalPodAutoscaler',
      'Service',
    ]);
  });

  it('a Trait whose properties do not validate is rejected by itself; its target keeps rendering the rest', async () => {
    const ns = await cluster.namespace('invalid');
    const deployment = (check: (d: KubeObject) => boolean, what: string) =>
      eventually(async () => {
        const d = await cluster.get('apps/v1', 'Deployment', ns, 'web');
        return d && check(d) ? d : undefined;
      }, what);
    await cluster.applyObject(webComponent(ns, 'web'));
    await cluster.applyObject(
      trait(ns, 'web-labels', 'labels', { component: 'web' }, { team: 'ops' }),
      'operator',
    );
    await deployment((d) => d.metadata?.labels?.team === 'ops', 'the labels Trait applied');

    await cluster.applyObject(
      trait(ns, 'web-notes', 'annotations', { component: 'web' }, { note: 5 }),
      'operator',
    );
    const accepted = await traitCondition(ns, 'web-notes', 'Accepted', 'False', 'InvalidProperties');
    expect(accepted.message).toContain('Trait "web-notes" (annotations)');
    expect(accepted.message).toContain('note');
    await traitCondition(ns, 'web-notes', 'Applied', 'False', 'NotAccepted');
    const component = await cluster.oamStatus(
      'Component',
      ns,
      'web',
      (s) => condition(s, 'Traits')?.status === 'False',
      'the Component to report the rejected Trait',
    );
    expect(condition(component.status as any, 'Traits')?.message).toContain('Trait "web-notes"');
    expect(condition(component.status as any, 'Rendered')?.status).toBe('True');
    // The target still renders: the other Trait's change goes through.
    await cluster.applyObject(
      trait(ns, 'web-labels', 'labels', { component: 'web' }, { team: 'dev' }),
      'operator',
    );
    await deployment((d) => d.metadata?.labels?.team === 'dev', 'the labels change applied');
    await traitCondition(ns, 'web-labels', 'Applied', 'True');

    // Fixed, it is accepted and applied.
    await cluster.applyObject(
      trait(ns, 'web-notes', 'annotations', { component: 'web' }, { note: 'five' }),
      'operator',
    );
    await traitCondition(ns, 'web-notes', 'Accepted', 'True');
    await traitCondition(ns, 'web-notes', 'Applied', 'True');
    await deployment((d) => d.metadata?.annotations?.note === 'five', 'the annotations Trait applied');
  });

  it('a Trait follows its Component into the Application that references it', async () => {
    const ns = await cluster.namespace('follow');
    await cluster.applyObject(webComponent(ns, 'web'));
    await cluster.applyObject(
      trait(
        ns,
        'web-hpa',
        'hpa',
        { component: 'web' },
        { min: 1, max: 5, cpu: { type: 'Utilization', value: 80 } },
      ),
    );
    const hpa = await eventually(
      () => cluster.get('autoscaling/v2', 'HorizontalPodAutoscaler', ns, 'web'),
      'the HPA to appear',
    );
    await cluster.applyApp({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Application',
      metadata: { name: 'shop', namespace: ns },
      spec: { components: [{ name: 'web', componentRef: 'web' }] },
    });
    const moved = await eventually(async () => {
      const h = await cluster.get('autoscaling/v2', 'HorizontalPodAutoscaler', ns, 'web');
      return h?.metadata?.ownerReferences?.[0]?.kind === 'Application' ? h : undefined;
    }, 'the HPA to move to the Application');
    expect(moved.metadata!.uid).toBe(hpa.metadata!.uid);
    const t = await cluster.oamStatus(
      'Trait',
      ns,
      'web-hpa',
      (s) => s.renderedBy?.kind === 'Application',
      'the Trait to say the Application renders it',
    );
    expect((t.status as any).renderedBy).toEqual({ kind: 'Application', name: 'shop', component: 'web' });
  });

  it('a missing target or a type that does not apply is reported on the Trait and on its target', async () => {
    const ns = await cluster.namespace('bad');
    await cluster.applyObject(trait(ns, 'orphan', 'hpa', { component: 'nowhere' }, { min: 1, max: 2 }));
    expect(await traitCondition(ns, 'orphan', 'TargetFound', 'False')).toMatchObject({
      reason: 'TargetNotFound',
      message: `no Component "nowhere" in namespace "${ns}"`,
    });

    // A Job cannot be autoscaled: hpa applies to deployments.apps and statefulsets.apps only.
    await cluster.applyObject({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Component',
      metadata: { name: 'batch', namespace: ns },
      spec: { type: 'task', properties: { image: 'busybox', cmd: ['true'] } },
    });
    await cluster.applyObject(trait(ns, 'batch-hpa', 'hpa', { component: 'batch' }, { min: 1, max: 2 }));
    expect(await traitCondition(ns, 'batch-hpa', 'Accepted', 'False', 'NotApplicable')).toMatchObject({
      message:
        'trait "hpa" does not apply to component type "task" (it applies to: deployments.apps, statefulsets.apps)',
    });
    const batch = await cluster.oamStatus(
      'Component',
      ns,
      'batch',
      (s) => condition(s, 'Traits')?.status === 'False',
      'the Component to report the rejected Trait',
    );
    expect(condition(batch.status as any, 'Traits')?.message).toContain(
      'Trait "batch-hpa": trait "hpa" does not apply',
    );
    // The rejected Trait does not stop the Component from running.
    await cluster.oamStatus(
      'Component',
      ns,
      'batch',
      (s) => condition(s, 'Rendered')?.status === 'True',
      'batch rendered',
    );
    expect(await cluster.get('autoscaling/v2', 'HorizontalPodAutoscaler', ns, 'batch')).toBeUndefined();

    // An Application exists but has no such component: both are told.
    await cluster.applyApp({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Application',
      metadata: { name: 'shop', namespace: ns },
      spec: { components: [{ name: 'web', type: 'webservice', properties: { image: 'nginx' } }] },
    });
    await cluster.applyObject(
      trait(ns, 'typo', 'scaler', { component: 'wbe', application: 'shop' }, { replicas: 2 }),
    );
    expect(await traitCondition(ns, 'typo', 'TargetFound', 'False')).toMatchObject({
      message: 'Application "shop" has no component "wbe"',
    });
    const shop = await cluster.appStatus(
      ns,
      'shop',
      (s) => condition(s, 'Traits')?.status === 'False',
      'the Application to report the Trait aimed at a missing component',
    );
    expect(condition(shop.status as any, 'Traits')?.message).toBe(
      'Trait "typo": no component "wbe" in this Application',
    );
  });

  it('between conflicting Traits the older wins; a standalone Trait overrides an inline trait of its type', async () => {
    const ns = await cluster.namespace('prec');
    await cluster.applyObject(webComponent(ns, 'web'));
    // Named against their age, so a tie broken by name would pick the wrong one.
    const older = await cluster.applyObject(
      trait(
        ns,
        'z-older',
        'hpa',
        { component: 'web' },
        { min: 1, max: 5, cpu: { type: 'Utilization', value: 80 } },
      ),
    );
    await traitCondition(ns, 'z-older', 'Accepted', 'True');
    await afterCreationSecond(older);
    // cpuscaler conflictsWith hpa (and hpa with cpuscaler): the newer loses.
    await cluster.applyObject(
      trait(ns, 'a-newer', 'cpuscaler', { component: 'web' }, { min: 1, max: 3, cpuUtil: 50 }),
    );
    expect(await traitCondition(ns, 'a-newer', 'Accepted', 'False', 'Conflict')).toMatchObject({
      message: 'conflicts with the older Trait "z-older" (hpa) on the same component',
    });
    const web = await cluster.oamStatus(
      'Component',
      ns,
      'web',
      (s) => condition(s, 'Traits')?.status === 'False',
      'the Component to report the conflict',
    );
    expect(condition(web.status as any, 'Traits')?.message).toContain('Trait "a-newer": conflicts with');
    const hpa = await cluster.get('autoscaling/v2', 'HorizontalPodAutoscaler', ns, 'web');
    expect((hpa!.spec as any).maxReplicas).toBe(5);
    // The older goes: the newer is accepted now.
    await cluster.deleteObject(trait(ns, 'z-older', 'hpa', { component: 'web' }));
    await traitCondition(ns, 'a-newer', 'Accepted', 'True');

    // An inline scaler and an operator's scaler Trait on the same component: the Trait wins.
    await cluster.applyApp({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Application',
      metadata: { name: 'shop', namespace: ns },
      spec: {
        components: [
          {
            name: 'api',
            type: 'webservice',
            properties: { image: 'nginx' },
            traits: [{ type: 'scaler', properties: { replicas: 2 } }],
          },
        ],
      },
    });
    await cluster.appStatus(ns, 'shop', (s) => s.status === 'running', 'the app to run');
    await cluster.applyObject(
      trait(ns, 'ops-scaler', 'scaler', { component: 'api', application: 'shop' }, { replicas: 4 }),
    );
    await eventually(async () => {
      const d = await cluster.get('apps/v1', 'Deployment', ns, 'api');
      return (d?.spec as any)?.replicas === 4 ? d : undefined;
    }, 'the operator’s replicas to win');
    const shop = await cluster.appStatus(
      ns,
      'shop',
      (s) => condition(s, 'InlineTraitsOverridden')?.status === 'True',
      'the app to say its inline trait is overridden',
    );
    expect(condition(shop.status as any, 'InlineTraitsOverridden')?.message).toBe(
      'components "api" traits[0] (scaler) is overridden by Trait "ops-scaler"',
    );
  });
});
