import { validateObjectName } from './index.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const configMap = { kind: 'ConfigMap', group: '', namespaced: true };
const namespace = { kind: 'Namespace', group: '', namespaced: false };
const service = { kind: 'Service', group: '', namespaced: true };
const deployment = { kind: 'Deployment', group: 'apps', namespaced: true };
const role = { kind: 'Role', group: 'rbac.authorization.k8s.io', namespaced: true };
const cronJob = { kind: 'CronJob', group: 'batch', namespaced: true };
const widget = { kind: 'Widget', group: 'example.com', namespaced: true };

describe('validateObjectName', () => {
  it.each([
    ['a DNS subdomain for a ConfigMap', configMap, 'app.config-1'],
    ['a label for a Namespace', namespace, 'team-a'],
    ['a DNS-1123 label for a Service', service, 'web'],
    ['a Service name starting with a digit (RelaxedServiceNameValidation)', service, '1web'],
    [
      'a 253-character subdomain',
      deployment,
      `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
    ],
    ['colons in RBAC names', role, 'system:controller:oam'],
    ['a custom resource subdomain', widget, 'my.widget'],
  ])('accepts %s', (_what, resource, name) => {
    expect(validateObjectName(resource, name)).toEqual([]);
  });

  it.each([
    ['uppercase and underscore', deployment, 'Foo_Bar', [SUBDOMAIN_MSG]],
    ['too long a subdomain', configMap, 'a'.repeat(254), ['must be no more than 253 characters']],
    ['dots in a namespace', namespace, 'team.a', ['must not contain dots']],
    ['a 64-character namespace', namespace, 'a'.repeat(64), ['must be no more than 63 characters']],
    ['uppercase namespace', namespace, 'Team', [LABEL_MSG]],
    ['uppercase in a Service name', service, 'Web', [LABEL_MSG]],
    ['a slash in an RBAC name', role, 'a/b', ["may not contain '/'"]],
    ['a 53-character CronJob', cronJob, 'c'.repeat(53), ['must be no more than 52 characters']],
  ])('rejects %s', (_what, resource, name, messages) => {
    expect(validateObjectName(resource, name)).toEqual(
      messages.map((m) => ({
        field: 'metadata.name',
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(name)}: ${m}`,
      })),
    );
  });

  it('reports every problem of a name separately, as kube does', () => {
    const causes = validateObjectName(namespace, `${'A'.repeat(64)}`);
    expect(causes.map((c) => c.message)).toEqual([
      `Invalid value: "${'A'.repeat(64)}": must be no more than 63 characters`,
      `Invalid value: "${'A'.repeat(64)}": ${LABEL_MSG}`,
    ]);
  });

  it('requires a name', () => {
    expect(validateObjectName(configMap, '')).toEqual([
      {
        field: 'metadata.name',
        reason: 'FieldValueRequired',
        message: 'Required value: name or generateName is required',
      },
    ]);
  });

  it('checks generateName prefixes with their trailing dash masked', () => {
    expect(validateObjectName(deployment, 'web-', true)).toEqual([]);
    expect(validateObjectName(deployment, 'Web-', true)).toEqual([
      {
        field: 'metadata.generateName',
        reason: 'FieldValueInvalid',
        message: `Invalid value: "Web-": ${SUBDOMAIN_MSG}`,
      },
    ]);
  });

  it('does not name-check TokenReviews, which are never stored', () => {
    expect(
      validateObjectName({ kind: 'TokenReview', group: 'authentication.k8s.io', namespaced: false }, 'X_Y'),
    ).toEqual([]);
  });
});
