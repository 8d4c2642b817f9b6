/** Printed columns for the remaining built-in kinds: networking (Ingress), discovery (EndpointSlice) and RBAC bindings. */
import { AGE, NAME, a, col, join, limited, type Any, type ColumnSpec } from './column-helpers.js';

export const OTHER_COLUMNS: Record<string, ColumnSpec[]> = {
  Ingress: [
    NAME,
    col('Class', (o) => a(o).spec?.ingressClassName ?? '<none>'),
    col('Hosts', (o) =>
      join(
        a(o).spec?.rules?.map((r: Any) => r.host ?? '*'),
        '*',
      ),
    ),
    col('Address', (o) =>
      join(
        a(o).status?.loadBalancer?.ingress?.map((i: Any) => i.ip ?? i.hostname),
        '',
      ),
    ),
    col('Ports', (o) =>
      limited(
        ((a(o).ports ?? []) as Any[]).map((p) => (typeof p.port === 'number' ? p.port : (p.name ?? '*'))),
      ),
    ),
    col('Endpoints', (o) =>
      join((a(o).subsets ?? []).flatMap((s: Any) => (s.addresses ?? []).map((ad: Any) => ad.ip))),
    ),
    AGE,
  ],
  EndpointSlice: [
    NAME,
    col('AddressType', (o) => a(o).addressType ?? ''),
    col('Ports', (o) =>
      limited(
        ((a(o).ports ?? []) as Any[]).map((p) =>
          p.port === undefined || p.port === null ? '<unset>' : p.port,
        ),
      ),
    ),
    col('Endpoints', (o) => limited(((a(o).endpoints ?? []) as Any[]).flatMap((e) => e.addresses ?? []))),
    AGE,
  ],
  RoleBinding: [NAME, col('Role', (o) => `${a(o).roleRef?.kind}/${a(o).roleRef?.name}`), AGE],
  ClusterRoleBinding: [NAME, col('Role', (o) => `${a(o).roleRef?.kind}/${a(o).roleRef?.name}`), AGE],
};
