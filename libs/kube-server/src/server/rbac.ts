/**
 * RBAC evaluation for SubjectAccessReview: kube-apiserver's rule matching over
 * the stored Roles, ClusterRoles and their bindings. Not evaluated:
 * ClusterRole aggregation (aggregationRule; only a role's own rules count).
 */

export interface ReviewSubject {
  user?: string;
  groups?: string[];
}

export interface ResourceAttributes {
  verb?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export interface NonResourceAttributes {
  verb?: string;
  path?: string;
}

interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

interface RbacObject {
  metadata: { name: string; namespace?: string };
  rules?: PolicyRule[];
  roleRef?: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
}

/** The stored RBAC objects: `namespace` given for Roles and RoleBindings, none for the cluster kinds. */
export type RbacLookup = (
  plural: 'roles' | 'rolebindings' | 'clusterroles' | 'clusterrolebindings',
  namespace?: string,
) => RbacObject[];

const has = (list: string[] | undefined, value: string) =>
  !!list && (list.includes('*') || list.includes(value));

function boundTo(binding: RbacObject, subject: ReviewSubject): boolean {
  return (binding.subjects ?? []).some((s) => {
    if (s.kind === 'User') return s.name === subject.user;
    if (s.kind === 'Group') return (subject.groups ?? []).includes(s.name);
    if (s.kind === 'ServiceAccount') {
      const namespace = s.namespace ?? binding.metadata.namespace;
      return subject.user === `system:serviceaccount:${namespace}:${s.name}`;
    }
    return false;
  });
}

function resourceRuleAllows(rule: PolicyRule, a: ResourceAttributes): boolean {
  if (!has(rule.verbs, a.verb ?? '') || !has(rule.apiGroups, a.group ?? '')) return false;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : (a.resource ?? '');
  const resources = rule.resources ?? [];
  const resourceOk =
    resources.includes('*') ||
    resources.includes(combined) ||
    (!!a.subresource && resources.includes(`*/${a.subresource}`));
  if (!resourceOk) return false;
  return !rule.resourceNames?.length || (!!a.name && rule.resourceNames.includes(a.name));
}

function nonResourceRuleAllows(rule: PolicyRule, a: NonResourceAttributes): boolean {
  if (!has(rule.verbs, a.verb ?? '')) return false;
  const path = a.path ?? '';
  return (rule.nonResourceURLs ?? []).some(
    (url) => url === '*' || url === path || (url.endsWith('*') && path.startsWith(url.slice(0, -1))),
  );
}

/**
 * Whether RBAC lets the subject do it: some ClusterRoleBinding, or a
 * RoleBinding in the request's namespace, binds the subject to a role with
 * a matching rule. Returns the binding that allowed it, for the review's reason.
 */
export function rbacAllows(
  lookup: RbacLookup,
  subject: ReviewSubject,
  attributes: { resource?: ResourceAttributes; nonResource?: NonResourceAttributes },
): string | undefined {
  const rulesOf = (binding: RbacObject): PolicyRule[] => {
    const ref = binding.roleRef;
    if (!ref) return [];
    const namespace = binding.metadata.namespace;
    if (ref.kind !== 'ClusterRole' && !namespace) return []; // a ClusterRoleBinding binds ClusterRoles only
    const roles = ref.kind === 'ClusterRole' ? lookup('clusterroles') : lookup('roles', namespace);
    return roles.find((r) => r.metadata.name === ref.name)?.rules ?? [];
  };
  const allows = (rule: PolicyRule) =>
    attributes.resource
      ? resourceRuleAllows(rule, attributes.resource)
      : nonResourceRuleAllows(rule, attributes.nonResource ?? {});
  const namespace = attributes.resource?.namespace;
  const bindings = [
    ...lookup('clusterrolebindings').map((b) => ({ b, what: `ClusterRoleBinding "${b.metadata.name}"` })),
    ...(namespace
      ? lookup('rolebindings', namespace).map((b) => ({
          b,
          what: `RoleBinding "${b.metadata.name}" of namespace "${namespace}"`,
        }))
      : []),
  ];
  for (const { b, what } of bindings)
    if (boundTo(b, subject) && rulesOf(b).some(allows))
      return `RBAC: allowed by ${what} of ${b.roleRef!.kind} "${b.roleRef!.name}"`;
  return undefined;
}
