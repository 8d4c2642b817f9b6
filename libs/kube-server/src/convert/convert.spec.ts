import { BUILTIN_RESOURCES, type ResourceInfo } from '../resources/builtin.js';
import { type StoredObject } from '#kube-core';
import { toExternal, toStorage } from './index.js';

const find = (group: string, version: string, plural: string) =>
  BUILTIN_RESOURCES.find(
    (r) => r.group === group && r.version === version && r.plural === plural,
  ) as ResourceInfo;

describe('shared stores', () => {
  it('HPA autoscaling/v1 targetCPUUtilizationPercentage is a cpu Utilization metric in the stored v2 form', () => {
    const v1 = find('autoscaling', 'v1', 'horizontalpodautoscalers');
    const v2 = find('autoscaling', 'v2', 'horizontalpodautoscalers');
    const sent: StoredObject = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
        minReplicas: 1,
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 70,
      },
    };
    const stored = toStorage(v1, sent);
    expect(stored.apiVersion).toBe('autoscaling/v2');
    expect(stored.spec).toEqual({
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
        },
      ],
    });
    expect(toExternal(v2, stored).apiVersion).toBe('autoscaling/v2');
    expect(toExternal(v1, stored)).toMatchObject({
      apiVersion: 'autoscaling/v1',
      spec: { targetCPUUtilizationPercentage: 70 },
    });
  });

  it('events.k8s.io/v1 note/regarding are core/v1 message/involvedObject', () => {
    const ev = find('events.k8s.io', 'v1', 'events');
    const core = find('', 'v1', 'events');
    const stored = toStorage(ev, {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e' },
      note: 'pulled',
      regarding: { kind: 'Pod', name: 'p' },
      reason: 'Pulled',
      type: 'Normal',
      reportingController: 'kubelet',
      eventTime: '2026-01-01T00:00:00.000000Z',
    });
    expect(toExternal(core, stored)).toMatchObject({
      apiVersion: 'v1',
      message: 'pulled',
      involvedObject: { kind: 'Pod', name: 'p' },
      reportingComponent: 'kubelet',
    });
    expect(toExternal(ev, stored)).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      note: 'pulled',
      regarding: { name: 'p' },
    });
  });
});
