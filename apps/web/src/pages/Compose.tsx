import { useEffect, useMemo, useState } from 'react';
import {
  api,
  ApiError,
  call,
  type Application,
  type CatalogDetail,
  type CatalogEntry,
  type FieldError,
  type PreviewResult,
} from '../api/client';
import { useLoad, type Loaded } from '../load';
import { href, navigate } from '../router';
import {
  applicationOf,
  draftOf,
  newComponent,
  newKey,
  type ComponentDraft,
  type Draft,
} from '../parts/draft';
import { errorSchemaAt, messagesAt } from '../parts/field-errors';
import { Loading, ProblemView } from '../parts/Problem';
import { TypeForm } from '../parts/TypeForm';
import { Yaml } from '../parts/Yaml';

type Kind = 'components' | 'traits';
const details = new Map<string, Promise<CatalogDetail>>();

/** A type's detail (schema and example), fetched once per page load. */
function typeDetail(kind: Kind, name: string, namespace: string): Promise<CatalogDetail> {
  const key = `${kind}/${namespace}/${name}`;
  let p = details.get(key);
  if (!p) {
    const path = { name };
    const query = { namespace };
    p =
      kind === 'components'
        ? call(api.GET('/api/v1/catalog/components/{name}', { params: { path, query } }))
        : call(api.GET('/api/v1/catalog/traits/{name}', { params: { path, query } }));
    p.catch(() => details.delete(key));
    details.set(key, p);
  }
  return p;
}

function FieldMessages({ id, messages }: { id: string; messages: string[] }) {
  if (!messages.length) return null;
  return (
    <ul className="error-detail" id={id}>
      {messages.map((m) => (
        <li key={m} className="text-danger">
          {m}
        </li>
      ))}
    </ul>
  );
}

/** The parameters of one component or trait: the generated form, once its type's schema is loaded. */
function Parameters(props: {
  kind: Kind;
  type: string;
  namespace: string;
  id: string;
  label: string;
  value: Record<string, unknown>;
  onChange: (v: Record<string, unknown>) => void;
  errors: FieldError[];
  errorPrefix: string;
}) {
  const detail = useLoad(
    () => typeDetail(props.kind, props.type, props.namespace),
    [props.kind, props.type, props.namespace],
  );
  const errorSchema = useMemo(
    () => errorSchemaAt(props.errors, props.errorPrefix),
    [props.errors, props.errorPrefix],
  );
  if (detail.error) return <ProblemView error={detail.error} />;
  if (!detail.data) return <Loading what={`the ${props.type} form`} />;
  return (
    <TypeForm
      id={props.id}
      label={props.label}
      schema={detail.data.schema}
      value={props.value}
      onChange={props.onChange}
      errors={errorSchema}
    />
  );
}

function ComponentEditor(props: {
  index: number;
  draft: ComponentDraft;
  appName: string;
  namespace: string;
  types: Loaded<{ items: CatalogEntry[] }>;
  errors: FieldError[];
  onChange: (c: ComponentDraft) => void;
  onRemove?: () => void;
}) {
  const { index, draft: c, namespace, errors, onChange } = props;
  const at = `spec.components[${index}]`;
  const id = `component-${index}`;
  const traits = useLoad(
    () =>
      c.type
        ? call(api.GET('/api/v1/catalog/traits', { params: { query: { namespace, component: c.type } } }))
        : Promise.resolve({ items: [] as CatalogEntry[] }),
    [c.type, namespace],
  );
  const [adding, setAdding] = useState('');
  const chosen = c.traits.map((t) => t.type);
  const entry = (type: string) => traits.data?.items.find((t) => t.name === type);
  const conflictsOf = (type: string): string[] => {
    const mine = entry(type)?.conflictsWith ?? [];
    return chosen.filter(
      (other) =>
        other !== type && (mine.includes(other) || (entry(other)?.conflictsWith ?? []).includes(type)),
    );
  };

  async function pickType(type: string) {
    onChange({ ...c, type, properties: {}, traits: [] });
    if (!type) return;
    const detail = await typeDetail('components', type, namespace).catch(() => undefined);
    if (detail) onChange({ ...c, type, properties: structuredClone(detail.example), traits: [] });
  }

  async function addTrait() {
    if (!adding) return;
    const detail = await typeDetail('traits', adding, namespace).catch(() => undefined);
    onChange({
      ...c,
      traits: [
        ...c.traits,
        { key: newKey(), type: adding, properties: structuredClone(detail?.example ?? {}) },
      ],
    });
    setAdding('');
  }

  const nameMessages = messagesAt(errors, `${at}.name`);
  const typeMessages = messagesAt(errors, `${at}.type`);
  return (
    <section className="block" aria-label={`Component ${c.name || props.appName || index + 1}`}>
      <div className="block-head">
        <h2>Component {index + 1}</h2>
        {props.onRemove && (
          <button type="button" onClick={props.onRemove}>
            Remove component
          </button>
        )}
      </div>
      <div className="field-row">
        <label htmlFor={`${id}-name`}>Component name</label>
        <input
          id={`${id}-name`}
          value={c.name}
          placeholder={props.appName || 'the application’s name'}
          onChange={(e) => onChange({ ...c, name: e.target.value })}
          aria-invalid={nameMessages.length > 0}
          aria-describedby={nameMessages.length ? `${id}-name-errors` : undefined}
        />
        <FieldMessages id={`${id}-name-errors`} messages={nameMessages} />
      </div>
      <div className="field-row">
        <label htmlFor={`${id}-type`}>Component type</label>
        <select
          id={`${id}-type`}
          value={c.type}
          onChange={(e) => void pickType(e.target.value)}
          aria-invalid={typeMessages.length > 0}
        >
          <option value="">Choose a type…</option>
          {props.types.data?.items.map((t) => (
            <option key={t.name} value={t.name}>
              {t.name}
              {t.workloadKind ? ` (${t.workloadKind})` : ''}
            </option>
          ))}
          {c.type && !props.types.data?.items.some((t) => t.name === c.type) && (
            <option value={c.type}>{c.type}</option>
          )}
        </select>
        <FieldMessages id={`${id}-type-errors`} messages={typeMessages} />
      </div>
      {c.type && (
        <>
          <h3>Properties</h3>
          <Parameters
            kind="components"
            type={c.type}
            namespace={namespace}
            id={id}
            label={`Properties of ${c.type}`}
            value={c.properties}
            onChange={(properties) => onChange({ ...c, properties })}
            errors={errors}
            errorPrefix={`${at}.properties`}
          />
          <h3>Traits</h3>
          {c.traits.length === 0 && <p className="muted">No traits yet.</p>}
          {c.traits.map((t, j) => {
            const conflicts = conflictsOf(t.type);
            return (
              <section key={t.key} className="block trait" aria-label={`Trait ${t.type}`}>
                <div className="block-head">
                  <h4>{t.type}</h4>
                  <button
                    type="button"
                    onClick={() => onChange({ ...c, traits: c.traits.filter((x) => x.key !== t.key) })}
                  >
                    Remove<span className="sr-only"> trait {t.type}</span>
                  </button>
                </div>
                {conflicts.length > 0 && (
                  <p className="conflict" role="alert">
                    {t.type} conflicts with {conflicts.join(', ')}: keep only one.
                  </p>
                )}
                <FieldMessages
                  id={`${id}-trait-${j}-errors`}
                  messages={messagesAt(errors, `${at}.traits[${j}].type`)}
                />
                <Parameters
                  kind="traits"
                  type={t.type}
                  namespace={namespace}
                  id={`${id}-${t.type}`}
                  label={`Properties of the ${t.type} trait`}
                  value={t.properties}
                  onChange={(properties) =>
                    onChange({
                      ...c,
                      traits: c.traits.map((x) => (x.key === t.key ? { ...x, properties } : x)),
                    })
                  }
                  errors={errors}
                  errorPrefix={`${at}.traits[${j}].properties`}
                />
              </section>
            );
          })}
          <div className="toolbar" style={{ justifyContent: 'flex-start' }}>
            <label htmlFor={`${id}-add-trait`}>Add a trait</label>
            <select id={`${id}-add-trait`} value={adding} onChange={(e) => setAdding(e.target.value)}>
              <option value="">Choose a trait…</option>
              {traits.data?.items.map((t) => {
                const clash = chosen.filter(
                  (o) => t.conflictsWith.includes(o) || (entry(o)?.conflictsWith ?? []).includes(t.name),
                );
                return (
                  <option key={t.name} value={t.name}>
                    {t.name}
                    {clash.length ? ` (conflicts with ${clash.join(', ')})` : ''}
                  </option>
                );
              })}
            </select>
            <button type="button" onClick={() => void addTrait()} disabled={!adding}>
              Add trait
            </button>
          </div>
          {traits.error && <ProblemView error={traits.error} />}
        </>
      )}
    </section>
  );
}

const KIND_ORDER = (o: PreviewResult['objects'][number]) => (o.role === 'workload' ? 0 : 1);

function PreviewView({ result }: { result: PreviewResult }) {
  const objects = [...result.objects].sort((a, b) => KIND_ORDER(a) - KIND_ORDER(b));
  return (
    <section aria-label="Preview" className="panel">
      <h2>Preview: {objects.length} objects</h2>
      {result.warnings.length > 0 && (
        <ul className="notice">
          {result.warnings.map((w) => (
            <li key={w.path + w.message}>
              <code>{w.path}</code>: {w.message}
            </li>
          ))}
        </ul>
      )}
      <ul className="objects">
        {objects.map((o, i) => {
          const meta = (o.object.metadata ?? {}) as { name?: string };
          return (
            <li key={i}>
              <details>
                <summary>
                  <strong>{String(o.object.kind)}</strong> {meta.name}{' '}
                  <span className="muted">
                    ({o.role === 'workload' ? 'workload' : `${o.trait} trait`} of {o.component})
                  </span>
                </summary>
                <Yaml value={o.object} label={`${String(o.object.kind)} ${meta.name}`} />
              </details>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

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
