import { useEffect, useMemo, useState } from 'react';
import { api, ApiError, call, type Application, type FieldError, type PreviewResult } from '../api/client';
import { useLoad } from '../load';
import { href, navigate } from '../router';
import { ComponentEditor } from '../parts/ComponentEditor';
import { applicationOf, draftOf, newComponent, type Draft } from '../parts/draft';
import { messagesAt } from '../parts/field-errors';
import { FieldMessages } from '../parts/Parameters';
import { PreviewView } from '../parts/PreviewView';
import { Loading, ProblemView } from '../parts/Problem';
import { typeDetail } from '../parts/type-detail';
import { Yaml } from '../parts/Yaml';

/**
 * Create (or, with `existing`, edit) an Application: a form per component and
 * trait from their JSON Schemas, the YAML beside it, Preview (the rendered
 * objects, or every error at its field) and Deploy/Save.
 */
function Composer({
  namespace,
  initial,
  existing,
}: {
  namespace: string;
  initial: Draft;
  existing?: Application;
}) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [problem, setProblem] = useState<ApiError>();
  const [preview, setPreview] = useState<PreviewResult>();
  const [busy, setBusy] = useState<'preview' | 'deploy'>();
  const types = useLoad(
    () => call(api.GET('/api/v1/catalog/components', { params: { query: { namespace } } })),
    [namespace],
  );
  const body = useMemo(() => applicationOf(draft, namespace), [draft, namespace]);

  // A changed draft makes the last preview and errors stale, but keep them visible until the next one.
  function change(next: Draft) {
    setDraft(next);
  }

  function failed(err: unknown) {
    const e = err as ApiError;
    setProblem(e);
    setErrors(e.fieldErrors ?? []);
    setPreview(undefined);
  }

  async function runPreview() {
    setBusy('preview');
    setProblem(undefined);
    try {
      const result = existing
        ? await call(
            api.POST('/api/v1/namespaces/{namespace}/applications/{name}/preview', {
              params: { path: { namespace, name: draft.name } },
              body,
            }),
          )
        : await call(
            api.POST('/api/v1/namespaces/{namespace}/preview', { params: { path: { namespace } }, body }),
          );
      setPreview(result);
      setErrors([]);
    } catch (err) {
      failed(err);
    } finally {
      setBusy(undefined);
    }
  }

  async function deploy() {
    setBusy('deploy');
    setProblem(undefined);
    try {
      if (existing)
        await call(
          api.PUT('/api/v1/namespaces/{namespace}/applications/{name}', {
            params: { path: { namespace, name: draft.name } },
            body,
          }),
        );
      else
        await call(
          api.POST('/api/v1/namespaces/{namespace}/applications', { params: { path: { namespace } }, body }),
        );
      navigate(`/apps/${encodeURIComponent(draft.name)}`);
    } catch (err) {
      failed(err);
    } finally {
      setBusy(undefined);
    }
  }

  const nameMessages = messagesAt(errors, 'metadata.name');
  return (
    <div className="composer">
      <div>
        <div className="block">
          <div className="field-row">
            <label htmlFor="app-name">Application name</label>
            <input
              id="app-name"
              value={draft.name}
              readOnly={!!existing}
              required
              pattern="[a-z0-9]([-a-z0-9]*[a-z0-9])?"
              onChange={(e) => change({ ...draft, name: e.target.value })}
              aria-invalid={nameMessages.length > 0}
              aria-describedby="app-name-help"
            />
            <span id="app-name-help" className="muted">
              {existing
                ? `In namespace ${namespace}.`
                : `Lowercase letters, digits and dashes; created in namespace ${namespace}.`}
            </span>
            <FieldMessages id="app-name-errors" messages={nameMessages} />
          </div>
        </div>
        {types.error && <ProblemView error={types.error} />}
        {draft.components.map((c, i) => (
          <ComponentEditor
            key={c.key}
            index={i}
            draft={c}
            appName={draft.name}
            namespace={namespace}
            types={types}
            errors={errors}
            onChange={(next) =>
              change({ ...draft, components: draft.components.map((x) => (x.key === c.key ? next : x)) })
            }
            onRemove={
              draft.components.length > 1
                ? () => change({ ...draft, components: draft.components.filter((x) => x.key !== c.key) })
                : undefined
            }
          />
        ))}
        <button
          type="button"
          onClick={() => change({ ...draft, components: [...draft.components, newComponent()] })}
        >
          Add another component
        </button>
      </div>
      <aside aria-label="Application YAML and preview">
        <div className="toolbar">
          <h2>YAML</h2>
          <div className="actions">
            <button type="button" onClick={() => void runPreview()} disabled={!!busy}>
              {busy === 'preview' ? 'Rendering…' : 'Preview'}
            </button>
            <button
              type="button"
              className="primary"
              onClick={() => void deploy()}
              disabled={!!busy || !draft.name}
            >
              {busy === 'deploy' ? 'Saving…' : existing ? 'Save' : 'Deploy'}
            </button>
          </div>
        </div>
        {problem && (
          <div>
            <ProblemView error={problem} />
            {problem.status === 409 && existing && (
              <p>
                The application changed since this page loaded it (the controller writes its status too), and
                nothing was overwritten.{' '}
                <button type="button" className="link" onClick={() => location.reload()}>
                  Load the latest version
                </button>{' '}
                (your edits here are dropped).
              </p>
            )}
          </div>
        )}
        <Yaml value={body} label="Application YAML" />
        {preview && <PreviewView result={preview} />}
      </aside>
    </div>
  );
}

export function CreatePage({ namespace, type }: { namespace: string; type?: string }) {
  const [initial] = useState<Draft>(() => ({ name: '', components: [newComponent()] }));
  const [ready, setReady] = useState(!type);
  // With ?type=, start from that type's example.
  useEffect(() => {
    if (!type) return;
    typeDetail('components', type, namespace)
      .then(
        (d) =>
          (initial.components[0] = {
            ...initial.components[0],
            type,
            properties: structuredClone(d.example),
          }),
      )
      .catch(() => (initial.components[0] = { ...initial.components[0], type }))
      .finally(() => setReady(true));
  }, [type, namespace, initial]);
  return (
    <main className="wide">
      <p className="crumbs">
        <a href={href('/')}>Catalog</a> / new application
      </p>
      <h1>New application</h1>
      {ready ? <Composer namespace={namespace} initial={initial} /> : <Loading what="the form" />}
    </main>
  );
}

export function EditPage({ namespace, name }: { namespace: string; name: string }) {
  const app = useLoad(
    () =>
      call(
        api.GET('/api/v1/namespaces/{namespace}/applications/{name}', {
          params: { path: { namespace, name } },
        }),
      ),
    [namespace, name],
  );
  return (
    <main className="wide">
      <p className="crumbs">
        <a href={href('/apps')}>Applications</a> /{' '}
        <a href={href(`/apps/${encodeURIComponent(name)}`)}>{name}</a> / edit
      </p>
      <h1>Edit {name}</h1>
      {app.error ? (
        <ProblemView error={app.error} />
      ) : !app.data ? (
        <Loading what={name} />
      ) : (
        <>
          <p className="muted">
            Loaded at resourceVersion <code>{app.data.metadata.resourceVersion}</code>; saving sends it back,
            so a change made meanwhile is refused (409), never overwritten.
          </p>
          <Composer namespace={namespace} initial={draftOf(app.data)} existing={app.data} />
        </>
      )}
    </main>
  );
}
