import { useState } from 'react';
import { api, call, type ApplicationView } from '../api/client';
import { href } from '../router';
import { useWatch } from '../watch';
import { age, Health, LiveBadge } from '../parts/Health';
import { Loading, ProblemView } from '../parts/Problem';

/** The namespace's applications, kept current by the namespace watch stream. */
export function AppList({ namespace }: { namespace: string }) {
  const [apps, setApps] = useState<Map<string, ApplicationView>>();
  const upsert = (a: ApplicationView) => setApps((m) => new Map(m ?? []).set(a.name, a));
  const { live, error } = useWatch(
    { namespace },
    (e) => {
      if (e.type === 'DELETED')
        setApps((m) => {
          const next = new Map(m ?? []);
          next.delete(e.application.name);
          return next;
        });
      else upsert(e.application);
    },
    // Each (re)connection replays every application as ADDED; the list says when there are none.
    () => {
      setApps(new Map());
      call(api.GET('/api/v1/namespaces/{namespace}/applications', { params: { path: { namespace } } })).then(
        (list) =>
          setApps(
            (m) => new Map([...list.items.map((a): [string, ApplicationView] => [a.name, a]), ...(m ?? [])]),
          ),
        () => undefined,
      );
    },
  );
  const items = [...(apps?.values() ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <main>
      <div className="toolbar">
        <h1>Applications</h1>
        <div className="actions">
          <LiveBadge live={live} />
          <a className="button primary" href={href('/new')}>
            New application
          </a>
        </div>
      </div>
      <p className="muted">In namespace {namespace}; this list follows changes as they happen.</p>
      {error && !live && <ProblemView error={error} />}
      {!apps ? (
        !error && <Loading what="applications" />
      ) : items.length === 0 ? (
        <p className="empty">
          No applications in {namespace} yet. <a href={href('/new')}>Create one</a> or pick a type in the{' '}
          <a href={href('/')}>catalog</a>.
        </p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Applications">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Components</th>
                <th scope="col">Status</th>
                <th scope="col">Health</th>
                <th scope="col">Revision</th>
                <th scope="col">Age</th>
              </tr>
            </thead>
            <tbody>
              {items.map((a) => (
                <tr key={a.name} data-app={a.name}>
                  <th scope="row">
                    <a href={href(`/apps/${encodeURIComponent(a.name)}`)}>{a.name}</a>
                  </th>
                  <td>{a.components.map((c) => `${c.name} (${c.type ?? '?'})`).join(', ')}</td>
                  <td>{a.deleting ? 'deleting' : (a.phase ?? '—')}</td>
                  <td>
                    <Health healthy={a.healthy} deleting={a.deleting} />
                  </td>
                  <td>{a.revision ? `v${a.revision}` : '—'}</td>
                  <td>{age(a.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
