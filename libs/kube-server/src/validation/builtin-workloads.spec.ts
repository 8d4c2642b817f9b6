import { validateBuiltin } from './index.js';
import { deployment, hpa, ingress, podSpec, template } from './testing/fixtures.js';

const apps = (kind: string) => ({ group: 'apps', version: 'v1', kind });
const batch = (kind: string) => ({ group: 'batch', version: 'v1', kind });
const lines = (causes: Array<{ field: string; message: string }>) =>
  causes.map((c) => `${c.field}: ${c.message}`);

describe('Deployment', () => {
  it('requires a selector', () => {
    const d = deployment();
    delete d.spec.selector;
    expect(validateBuiltin(apps('Deployment'), d)).toEqual([
      { field: 'spec.selector', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
  });

  it('requires the selector to match the template labels, printing the labels as Go does', () => {
    const d = deployment();
    d.spec.template.metadata.labels = { app: 'api', tier: 'be' };
    expect(validateBuiltin(apps('Deployment'), d)).toEqual([
      {
        field: 'spec.template.metadata.labels',
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: map[string]string{"app":"api", "tier":"be"}: `selector` does not match template `labels`',
      },
    ]);
  });

  it('matches selectors with matchExpressions', () => {
    const d = deployment();
    d.spec.selector = {
      matchExpressions: [
        { key: 'app', operator: 'In', values: ['web', 'api'] },
        { key: 'canary', operator: 'DoesNotExist' },
      ],
    };
    expect(validateBuiltin(apps('Deployment'), d)).toEqual([]);
    d.spec.template.metadata.labels.canary = 'true';
    expect(lines(validateBuiltin(apps('Deployment'), d))).toEqual([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web", "canary":"true"}: `selector` does not match template `labels`',
    ]);
  });

  it('rejects an empty selector and bad selector expressions', () => {
    const d = deployment();
    d.spec.selector = {};
    expect(lines(validateBuiltin(apps('Deployment'), d))).toEqual([
      'spec.selector: Invalid value: &LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}: empty selector is invalid for deployment',
    ]);
    d.spec.selector = {
      matchExpressions: [
        { key: 'app', operator: 'In' },
        { key: 'x', operator: 'Exists', values: ['y'] },
      ],
    };
    expect(lines(validateBuiltin(apps('Deployment'), d))).toEqual([
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it('requires containers with name and image in the template', () => {
    const d = deployment();
    d.spec.template.spec = { containers: [{ image: 'nginx' }, { name: 'b' }] };
    expect(lines(validateBuiltin(apps('Deployment'), d))).toEqual([
      'spec.template.spec.containers[0].name: Required value',
      'spec.template.spec.containers[1].image: Required value',
    ]);
    d.spec.template.spec = { containers: [] };
    expect(lines(validateBuiltin(apps('Deployment'), d))).toEqual([
      'spec.template.spec.containers: Required value',
    ]);
  });

  it('checks port numbers and names of containers', () => {
    const d = deployment();
    d.spec.template.spec.containers[0].ports = [
      { containerPort: 70000, name: 'web-http-port-long' },
      { containerPort: 81, hostPort: -1 },
    ];
    expect(lines(validateBuiltin(apps('Deployment'), d))).toEqual([
      'spec.template.spec.containers[0].ports[0].name: Invalid value: "web-http-port-long": must be no more than 15 characters',
      'spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.template.spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive',
    ]);
  });

  it('rejects a negative replica count, a restart policy other than Always, and a 0/0 rollout', () => {
    const d = deployment();
    d.spec.replicas = -1;
    d.spec.template.spec.restartPolicy = 'Never';
    d.spec.strategy.rollingUpdate = { maxSurge: 0, maxUnavailable: '0%' };
    expect(lines(validateBuiltin(apps('Deployment'), d))).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0',
    ]);
  });

  it('forbids rollingUpdate with the Recreate strategy', () => {
    const d = deployment();
    d.spec.strategy.type = 'Recreate';
    expect(lines(validateBuiltin(apps('Deployment'), d))).toEqual([
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ]);
  });
});

describe('ReplicaSet, StatefulSet, DaemonSet', () => {
  it.each(['ReplicaSet', 'StatefulSet', 'DaemonSet'])('%s needs a selector matching its template', (kind) => {
    const obj = {
      metadata: { name: 'x' },
      spec: { selector: { matchLabels: { app: 'db' } }, template: template() },
    };
    expect(lines(validateBuiltin(apps(kind), obj))).toEqual([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it('names the kind in the empty-selector message', () => {
    const obj = { metadata: { name: 'x' }, spec: { selector: {}, template: template() } };
    expect(validateBuiltin(apps('StatefulSet'), obj)[0].message).toMatch(
      /empty selector is invalid for statefulset$/,
    );
    expect(validateBuiltin(apps('DaemonSet'), obj)[0].message).toMatch(
      /empty selector is invalid for daemonset$/,
    );
  });
});

describe('Job and CronJob', () => {
  it('requires OnFailure or Never (an unset policy defaults to Always)', () => {
    const job = { metadata: { name: 'j' }, spec: { template: { spec: podSpec() } } };
    expect(lines(validateBuiltin(batch('Job'), job))).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
    ]);
  });

  it('checks the schedule and the job template of a CronJob', () => {
    const cron = {
      metadata: { name: 'c' },
      spec: {
        schedule: '* * *',
        jobTemplate: {
          spec: { backoffLimit: -2, template: { spec: { ...podSpec(), restartPolicy: 'Never' } } },
        },
      },
    };
    expect(lines(validateBuiltin(batch('CronJob'), cron))).toEqual([
      'spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: * * *',
      'spec.jobTemplate.spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0',
    ]);
    const noSchedule = { metadata: { name: 'c' }, spec: { jobTemplate: cron.spec.jobTemplate } };
    expect(lines(validateBuiltin(batch('CronJob'), noSchedule))).toContain('spec.schedule: Required value');
  });
});

describe('Ingress', () => {
  const ing = { group: 'networking.k8s.io', version: 'v1', kind: 'Ingress' };

  it('requires a pathType and absolute paths', () => {
    const obj = ingress();
    obj.spec.rules[0].http.paths.push({
      path: 'api',
      pathType: 'Prefix',
      backend: { service: { name: 'api', port: { number: 8080 } } },
    });
    delete obj.spec.rules[0].http.paths[0].pathType;
    expect(lines(validateBuiltin(ing, obj))).toEqual([
      'spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified',
      'spec.rules[0].http.paths[1].path: Invalid value: "api": must be an absolute path',
    ]);
  });

  it('checks hosts and backends', () => {
    const obj = ingress();
    obj.spec.rules[0].host = 'Web.Example.com';
    obj.spec.rules[0].http.paths[0].backend = { service: { name: 'web', port: {} } };
    obj.spec.rules.push({
      host: '10.0.0.1',
      http: { paths: [{ path: '/', pathType: 'Exact', backend: {} }] },
    });
    const got = lines(validateBuiltin(ing, obj));
    expect(got[0]).toMatch(
      /^spec\.rules\[0\]\.host: Invalid value: "Web\.Example\.com": a lowercase RFC 1123 subdomain/,
    );
    expect(got.slice(1)).toEqual([
      'spec.rules[0].http.paths[0].backend: Required value: port name or number is required',
      'spec.rules[1].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
      'spec.rules[1].http.paths[0].backend: Invalid value: "": resource or service backend is required',
    ]);
  });

  it('takes backend service names that are DNS-1123 labels (RelaxedServiceNameValidation, 1.37)', () => {
    const obj = ingress();
    obj.spec.rules[0].http.paths[0].backend.service.name = '1web';
    expect(validateBuiltin(ing, obj)).toEqual([]);
    obj.spec.rules[0].http.paths[0].backend.service.name = 'Web';
    expect(lines(validateBuiltin(ing, obj))).toEqual([
      expect.stringMatching(
        /^spec\.rules\[0\]\.http\.paths\[0\]\.backend\.service\.name: Invalid value: "Web": a lowercase RFC 1123 label/,
      ),
    ]);
  });
});

describe('HorizontalPodAutoscaler v2', () => {
  const v2 = { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' };

  it('requires minReplicas <= maxReplicas', () => {
    const obj = hpa();
    obj.spec.minReplicas = 6;
    expect(validateBuiltin(v2, obj)).toEqual([
      {
        field: 'spec.maxReplicas',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 5: must be greater than or equal to `minReplicas`',
      },
    ]);
  });

  it('rejects zero replicas bounds, a missing target and a non-positive utilization', () => {
    const obj = hpa();
    obj.spec.minReplicas = 0;
    obj.spec.maxReplicas = 0;
    obj.spec.scaleTargetRef = { kind: 'Deployment', name: '' };
    obj.spec.metrics[0].resource.target.averageUtilization = 0;
    obj.spec.metrics.push({ type: 'Pods' });
    expect(lines(validateBuiltin(v2, obj))).toEqual([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.scaleTargetRef.name: Required value',
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
      'spec.metrics[1].pods: Required value: must populate information for the given metric source',
    ]);
  });

  it('reports a missing maxReplicas from the schema', () => {
    const obj = hpa();
    delete obj.spec.maxReplicas;
    expect(lines(validateBuiltin(v2, obj))).toEqual(['spec.maxReplicas: Required value']);
  });
});
