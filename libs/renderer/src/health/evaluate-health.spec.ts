import { type TypedObject } from '#kube-core';
import { createCueEngine, type CueEngine } from '../engines/cue/index.js';
import { componentContext } from '../engines/handlebars/testing.js';
import { evaluateHealth } from './index.js';

// KubeVela's health policy and custom status for a Deployment (its webservice definition).
const DEPLOYMENT_HEALTH = `ready: {
	updatedReplicas:    *0 | int
	readyReplicas:      *0 | int
	replicas:           *0 | int
	observedGeneration: *0 | int
} & {
	if context.output.status.updatedReplicas != _|_ {
		updatedReplicas: context.output.status.updatedReplicas
	}
	if context.output.status.readyReplicas != _|_ {
		readyReplicas: context.output.status.readyReplicas
	}
	if context.output.status.replicas != _|_ {
		replicas: context.output.status.replicas
	}
	if context.output.status.observedGeneration != _|_ {
		observedGeneration: context.output.status.observedGeneration
	}
}
isHealth: (context.output.spec.replicas == ready.readyReplicas) && (context.output.spec.replicas == ready.updatedReplicas) && (context.output.spec.replicas == ready.replicas) && (ready.observedGeneration == context.output.metadata.generation || ready.observedGeneration > context.output.metadata.generation)
`;

const DEPLOYMENT_STATUS = `ready: {
	readyReplicas: *0 | int
} & {
	if context.output.status.readyReplicas != _|_ {
		readyReplicas: context.output.status.readyReplicas
	}
}
message: "Ready:\\(ready.readyReplicas)/\\(context.output.spec.replicas)"
`;

const policy = { healthPolicy: DEPLOYMENT_HEALTH, customStatus: DEPLOYMENT_STATUS };

function deployment(status: Record<string, number> | undefined, generation = 2): TypedObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'default', generation },
    spec: { replicas: 3 },
    ...(status ? { status } : {}),
  } as TypedObject;
}

let engine: CueEngine;
beforeAll(() => {
  engine = createCueEngine({ timeoutMs: 5000, poolSize: 1 });
});
afterAll(() => engine.close());

describe('evaluateHealth', () => {
  it('is healthy when every replica is updated and ready for the current generation', async () => {
    const live = deployment({ replicas: 3, updatedReplicas: 3, readyReplicas: 3, observedGeneration: 2 });
    await expect(evaluateHealth(policy, { output: live }, engine)).resolves.toEqual({
      healthy: true,
      message: 'Ready:3/3',
    });
  });

  it('is unhealthy while replicas are not ready yet', async () => {
    const live = deployment({ replicas: 3, updatedReplicas: 3, readyReplicas: 1, observedGeneration: 2 });
    await expect(evaluateHealth(policy, { output: live }, engine)).resolves.toEqual({
      healthy: false,
      message: 'Ready:1/3',
    });
  });

  it('is unhealthy while the controller has not observed the latest generation', async () => {
    const live = deployment({ replicas: 3, updatedReplicas: 3, readyReplicas: 3, observedGeneration: 1 });
    expect((await evaluateHealth(policy, { output: live }, engine)).healthy).toBe(false);
  });

  it('handles a workload with no status at all (just created)', async () => {
    await expect(evaluateHealth(policy, { output: deployment(undefined) }, engine)).resolves.toEqual({
      healthy: false,
      message: 'Ready:0/3',
    });
  });

  it('is healthy without a policy', async () => {
    await expect(evaluateHealth({}, { output: deployment(undefined) }, engine)).resolves.toEqual({
      healthy: true,
    });
  });

  it('reads other outputs and parameters', async () => {
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api' },
      spec: { clusterIP: '10.0.0.7' },
    };
    const result = await evaluateHealth(
      {
        healthPolicy: 'isHealth: context.outputs.svc.spec.clusterIP != ""\n',
        customStatus: 'message: "\\(parameter.label) at \\(context.outputs.svc.spec.clusterIP)"\n',
      },
      {
        output: deployment(undefined),
        outputs: { svc: service as TypedObject },
        parameter: { label: 'api' },
      },
      engine,
    );
    expect(result).toEqual({ healthy: true, message: 'api at 10.0.0.7' });
  });

  it("gives the policies the component's render context, as KubeVela does", async () => {
    const result = await evaluateHealth(
      {
        healthPolicy: 'isHealth: context.name == "api" && context.clusterVersion.minor >= 19\n',
        customStatus: 'message: "\\(context.appName)/\\(context.name) in \\(context.namespace)"\n',
      },
      { output: deployment(undefined), context: componentContext({ appName: 'shop', namespace: 'prod' }) },
      engine,
    );
    expect(result).toEqual({ healthy: true, message: 'shop/api in prod' });
  });

  it('turns a failing policy into an unhealthy result, never a throw', async () => {
    const result = await evaluateHealth(
      { healthPolicy: 'isHealth: context.output.spec.replicas + "x"\n' },
      { output: deployment(undefined) },
      engine,
    );
    expect(result.healthy).toBe(false);
    expect(result.message).toMatch(/^health policy failed: .*healthPolicy, template line 1: isHealth: /);
  });

  it('requires isHealth to be a bool', async () => {
    const result = await evaluateHealth(
      { healthPolicy: 'isHealth: "yes"\n' },
      { output: deployment(undefined) },
      engine,
    );
    expect(result).toEqual({
      healthy: false,
      message: 'health policy must set isHealth to a bool, got "yes"',
    });
  });

  it('keeps the health verdict when only the custom status fails', async () => {
    const result = await evaluateHealth(
      { healthPolicy: 'isHealth: true\n', customStatus: 'message: context.output.status.phase\n' },
      { output: deployment(undefined) },
      engine,
    );
    expect(result.healthy).toBe(true);
    expect(result.message).toMatch(/^custom status failed: /);
  });
});
