import { api, call } from '../api/client';
import { useLoad } from '../load';
import { href } from '../router';
import { paramRows } from '../parts/params';
import { Loading, ProblemView } from '../parts/Problem';
import { Yaml } from '../parts/Yaml';

/** A component or trait type: its parameter table (nested fields indented) and an example that renders. */
export function TypePage({
  kind,
  name,
  namespace,
}: {
  kind: 'component' | 'trait';
  name: string;
  namespace: string;
}) {
  const detail = useLoad(
    () =>
      kind === 'component'
        ? call(
            api.GET('/api/v1/catalog/components/{name}', {
              params: { path: { name }, query: { namespace } },
            }),
          )
        : call(
            api.GET('/api/v1/catalog/traits/{name}', { params: { path: { name }, query: { namespace } } }),
          ),
    [kind, name, namespace],
  );
  if (detail.error)
    return (
      <main>
        <h1>{name}</h1>
        <ProblemView error={detail.error} />
      </main>
    );
  if (!detail.data)
    return (
      <main>
        <Loading what={`the ${kind} type ${name}`} />
      </main>
    );
  const t = detail.data;
  const rows = paramRows(t.schema as never);
  return (
    <main>
      <p className="crumbs">
        <a href={href('/')}>Catalog</a> / {kind} types
      </p>
      <div className="toolbar">
        <h1>
          {t.name} <span className="tag">{kind}</span>
        </h1>
        {kind === 'component' && (
          <a className="button primary" href={href(`/new?type=${encodeURIComponent(t.name)}`)}>
            Create an application with {t.name}
          </a>
        )}
      </div>
      <p>{t.description}</p>
      <dl className="facts">
        {t.workloadKind && (
          <>
            <dt>Workload</dt>
            <dd>{t.workloadKind}</dd>
          </>
        )}
        {kind === 'trait' && (
          <>
            <dt>Applies to</dt>
            <dd>{t.appliesTo.length ? t.appliesTo.join(', ') : 'any workload'}</dd>
            <dt>Conflicts with</dt>
            <dd>{t.conflictsWith.length ? t.conflictsWith.join(', ') : 'nothing'}</dd>
          </>
        )}
        <dt>Engine</dt>
        <dd>{t.engine}</dd>
        <dt>Defined in</dt>
        <dd>{t.namespace}</dd>
      </dl>
      <div className="stack">
        <section aria-label="Example">
          <h2>Example</h2>
          <Yaml value={t.example} label={`Example properties of ${t.name}`} />
        </section>
        <section aria-label="Parameters">
          <h2>Parameters</h2>
          {rows.length === 0 ? (
            <p className="empty">This type takes no parameters.</p>
          ) : (
            <div className="table-wrap">
              <table className="params">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Type</th>
                    <th scope="col">Required</th>
                    <th scope="col">Default</th>
                    <th scope="col">Description</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.path} data-depth={r.depth}>
                      <th scope="row" style={{ paddingLeft: `${0.5 + r.depth * 1.25}rem` }}>
                        <code>{r.name}</code>
                      </th>
                      <td>
                        <code>{r.type}</code>
                      </td>
                      <td>{r.required ? 'yes' : 'no'}</td>
                      <td>{r.default === undefined ? '' : <code>{JSON.stringify(r.default)}</code>}</td>
                      <td>{r.description}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
    </main>
  );
}
