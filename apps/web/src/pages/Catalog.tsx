import { useState } from 'react';
import { api, call, type CatalogEntry } from '../api/client';
import { useLoad } from '../load';
import { href } from '../router';
import { Loading, ProblemView } from '../parts/Problem';

function Card({ entry }: { entry: CatalogEntry }) {
  return (
    <li className="card">
      <h3>
        <a href={href(`/types/${entry.kind}/${entry.name}`)}>{entry.name}</a>
      </h3>
      <p>{entry.description || <span className="muted">No description.</span>}</p>
      <dl>
        {entry.kind === 'component' ? (
          <>
            <dt>Workload</dt>
            <dd>{entry.workloadKind ?? '—'}</dd>
          </>
        ) : (
          <>
            <dt>Applies to</dt>
            <dd>{entry.appliesTo.length ? entry.appliesTo.join(', ') : 'any workload'}</dd>
            {entry.conflictsWith.length > 0 && (
              <>
                <dt>Conflicts with</dt>
                <dd>{entry.conflictsWith.join(', ')}</dd>
              </>
            )}
          </>
        )}
        <dt>Engine</dt>
        <dd>{entry.engine}</dd>
        {entry.namespace !== 'vela-system' && (
          <>
            <dt>Namespace</dt>
            <dd>{entry.namespace}</dd>
          </>
        )}
      </dl>
      {entry.kind === 'component' && (
        <a className="button" href={href(`/new?type=${encodeURIComponent(entry.name)}`)}>
          Create an application<span className="sr-only"> with {entry.name}</span>
        </a>
      )}
    </li>
  );
}

/** Component and trait types as cards; the search goes to the API (`?q=`, names and descriptions). */
export function Catalog({ namespace }: { namespace: string }) {
  const [q, setQ] = useState('');
  const components = useLoad(
    () =>
      call(api.GET('/api/v1/catalog/components', { params: { query: { namespace, ...(q ? { q } : {}) } } })),
    [namespace, q],
  );
  const traits = useLoad(
    () => call(api.GET('/api/v1/catalog/traits', { params: { query: { namespace, ...(q ? { q } : {}) } } })),
    [namespace, q],
  );
  return (
    <main>
      <div className="toolbar">
        <h1>Catalog</h1>
        <label className="search">
          <span className="sr-only">Search types</span>
          <input
            type="search"
            placeholder="Search types by name or description"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
        </label>
      </div>
      {[
        { title: 'Component types', loaded: components },
        { title: 'Trait types', loaded: traits },
      ].map(({ title, loaded }) => (
        <section key={title} aria-label={title}>
          <h2>{title}</h2>
          {loaded.error ? (
            <ProblemView error={loaded.error} />
          ) : !loaded.data ? (
            <Loading what={title.toLowerCase()} />
          ) : loaded.data.items.length === 0 ? (
            <p className="empty">{q ? `No type matches “${q}”.` : 'No types are installed.'}</p>
          ) : (
            <ul className="cards">
              {loaded.data.items.map((e) => (
                <Card key={e.name} entry={e} />
              ))}
            </ul>
          )}
        </section>
      ))}
    </main>
  );
}
