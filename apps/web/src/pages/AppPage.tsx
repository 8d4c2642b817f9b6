import { useEffect, useRef, useState } from 'react';
import { api, ApiError, call, type ApplicationView } from '../api/client';
import { useLoad } from '../load';
import { href, navigate } from '../router';
import { useWatch } from '../watch';
import { age, Health, LiveBadge } from '../parts/Health';
import { Loading, ProblemView } from '../parts/Problem';

function HealthTree({ app }: { app: ApplicationView }) {
  return (
    <ul className="tree" aria-label="Health tree">
      <li>
        <div className="node">
          <strong>{app.name}</strong> <Health healthy={app.healthy} deleting={app.deleting} />
          <span className="msg">{app.phase}</span>
        </div>
        <ul>
          {app.components.map((c) => (
            <li key={c.name} data-component={c.name}>
              <div className="node">
                <span>
                  Component <strong>{c.name}</strong> <span className="muted">({c.type})</span>
                </span>
                <Health healthy={c.healthy} />
                {c.message && <span className="msg">{c.message}</span>}
              </div>
              <ul>
                {c.traits.map((t, i) => (
                  <li key={`${t.type}-${i}`}>
                    <div className="node">
                      <span>
                        Trait <strong>{t.type}</strong>
                      </span>
                      <Health healthy={t.healthy} />
                      {t.message && <span className="msg">{t.message}</span>}
                    </div>
                  </li>
                ))}
                {c.objects.map((o) => (
                  <li key={`${o.kind}/${o.namespace}/${o.name}`}>
                    <div className="node">
                      <code>
                        {o.kind}/{o.name}
                      </code>
                      <span className="msg">{o.trait ? `from the ${o.trait} trait` : 'workload'}</span>
                    </div>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </li>
    </ul>
  );
}

function Conditions({ app }: { app: ApplicationView }) {
  if (app.conditions.length === 0) return <p className="empty">No conditions reported yet.</p>;
  return (
    <div className="table-wrap">
      <table aria-label="Conditions">
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Reason</th>
            <th scope="col">Message</th>
            <th scope="col">Since</th>
          </tr>
        </thead>
        <tbody>
          {app.conditions.map((c) => (
            <tr key={c.type}>
              <th scope="row">{c.type}</th>
              <td>{c.status}</td>
              <td>{c.reason}</td>
              <td>{c.message}</td>
              <td>{age(c.lastTransitionTime)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DeleteButton({ namespace, name }: { namespace: string; name: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  async function remove() {
    setBusy(true);
    try {
      await call(
        api.DELETE('/api/v1/namespaces/{namespace}/applications/{name}', {
          params: { path: { namespace, name } },
        }),
      );
      dialog.current?.close();
      navigate('/apps');
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <button type="button" className="danger" onClick={() => dialog.current?.showModal()}>
        Delete
      </button>
      <dialog ref={dialog} aria-labelledby="delete-title">
        <h2 id="delete-title">Delete {name}?</h2>
        <p>The controller removes every object it applied for this application. This cannot be undone.</p>
        {error && <ProblemView error={error} />}
        <div className="actions">
          <button type="button" onClick={() => dialog.current?.close()} autoFocus>
            Cancel
          </button>
          <button type="button" className="danger" onClick={() => void remove()} disabled={busy}>
            {busy ? 'Deleting…' : `Delete ${name}`}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** One application: its health tree, conditions and events, live; revisions with rollback; edit and delete. */
export function AppPage({ namespace, name }: { namespace: string; name: string }) {
  const [app, setApp] = useState<ApplicationView>();
  const [gone, setGone] = useState(false);
  const [rollback, setRollback] = useState<{ revision: number; error?: ApiError; done?: boolean }>();
  const { live, error } = useWatch({ namespace, name }, (e) => {
    if (e.type === 'DELETED') setGone(true);
    else {
      setGone(false);
      setApp(e.application);
    }
  });
  const path = { namespace, name };
  // Events and revisions reload when the application changes, but not once it is being deleted:
  // a reload then races the application's removal and ends in a 404 (logged by the browser).
  const lastLiveRv = useRef<string>(undefined);
  if (app && !app.deleting && !gone) lastLiveRv.current = app.resourceVersion;
  const rv = lastLiveRv.current;
  const events = useLoad(
    () =>
      rv
        ? call(api.GET('/api/v1/namespaces/{namespace}/applications/{name}/events', { params: { path } }))
        : Promise.resolve({ items: [] }),
    [namespace, name, rv],
  );
  const revisions = useLoad(
    () => call(api.GET('/api/v1/namespaces/{namespace}/applications/{name}/revisions', { params: { path } })),
    [namespace, name, rv],
  );
  // The API's revision cache may trail the application's status by a moment: read again until it has the current one.
  const missing =
    !!app?.revision && !!revisions.data && !revisions.data.items.some((r) => r.revision === app.revision);
  useEffect(() => {
    if (!missing) return;
    const timer = setTimeout(revisions.reload, 1000);
    return () => clearTimeout(timer);
  }, [missing, revisions.data]);
  useEffect(() => setRollback(undefined), [name]);

  async function rollTo(revision: number) {
    setRollback({ revision });
    try {
      await call(
        api.POST('/api/v1/namespaces/{namespace}/applications/{name}/rollback', {
          params: { path },
          body: { revision },
        }),
      );
      setRollback({ revision, done: true });
    } catch (err) {
      setRollback({ revision, error: err as ApiError });
    }
  }

  return (
    <main>
      <p className="crumbs">
        <a href={href('/apps')}>Applications</a> / {name}
      </p>
      <div className="toolbar">
        <h1>
          {name} {app && <Health healthy={app.healthy} deleting={app.deleting} />}
        </h1>
        <div className="actions">
          <LiveBadge live={live} />
          {app && !gone && (
            <>
              <a className="button" href={href(`/apps/${encodeURIComponent(name)}/edit`)}>
                Edit
              </a>
              <DeleteButton namespace={namespace} name={name} />
            </>
          )}
        </div>
      </div>
      {error && !live && <ProblemView error={error} />}
      {gone && (
        <p className="empty" role="status">
          {name} was deleted. <a href={href('/apps')}>Back to the applications</a>.
        </p>
      )}
      {!app ? (
        !error && <Loading what={name} />
      ) : (
        <>
          <p className="muted">
            {app.phase ?? 'not reconciled yet'} · revision {app.revision ? `v${app.revision}` : '—'} · created{' '}
            {age(app.createdAt)} ago
          </p>
          <div className="split">
            <section aria-label="Health">
              <h2>Health</h2>
              <div className="panel">
                <HealthTree app={app} />
              </div>
              <h2>Conditions</h2>
              <Conditions app={app} />
            </section>
            <section aria-label="Revisions">
              <h2>Revisions</h2>
              {rollback?.error && <ProblemView error={rollback.error} />}
              {rollback?.done && (
                <p className="notice" role="status">
                  Rollback to v{rollback.revision} requested; the controller applies it and records a new
                  revision.
                </p>
              )}
              {revisions.error ? (
                <ProblemView error={revisions.error} />
              ) : !revisions.data ? (
                <Loading what="revisions" />
              ) : revisions.data.items.length === 0 ? (
                <p className="empty">
                  No revisions yet: the controller records one when it applies the application.
                </p>
              ) : (
                <div className="table-wrap">
                  <table aria-label="Revisions">
                    <thead>
                      <tr>
                        <th scope="col">Revision</th>
                        <th scope="col">Age</th>
                        <th scope="col">Change</th>
                        <th scope="col">
                          <span className="sr-only">Action</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {[...revisions.data.items].reverse().map((r) => (
                        <tr key={r.name} data-revision={r.revision}>
                          <th scope="row">
                            v{r.revision} {r.current && <span className="tag">current</span>}
                          </th>
                          <td>{age(r.createdAt)}</td>
                          <td>{r.changeSummary}</td>
                          <td>
                            {!r.current && (
                              <button
                                type="button"
                                onClick={() => void rollTo(r.revision)}
                                disabled={
                                  rollback?.revision === r.revision && !rollback.done && !rollback.error
                                }
                              >
                                Roll back<span className="sr-only"> to v{r.revision}</span>
                              </button>
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
          </div>
          <section aria-label="Events">
            <h2>Events</h2>
            {events.error ? (
              <ProblemView error={events.error} />
            ) : !events.data ? (
              <Loading what="events" />
            ) : events.data.items.length === 0 ? (
              <p className="empty">No events.</p>
            ) : (
              <div className="table-wrap">
                <table aria-label="Events">
                  <thead>
                    <tr>
                      <th scope="col">Type</th>
                      <th scope="col">Reason</th>
                      <th scope="col">Object</th>
                      <th scope="col">Message</th>
                      <th scope="col">Last seen</th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...events.data.items]
                      .reverse()
                      .slice(0, 50)
                      .map((e, i) => (
                        <tr key={i}>
                          <td>{e.type}</td>
                          <td>{e.reason}</td>
                          <td>
                            {e.object.kind}/{e.object.name}
                          </td>
                          <td>{e.message}</td>
                          <td>{age(e.lastTimestamp ?? e.firstTimestamp)}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </main>
  );
}
