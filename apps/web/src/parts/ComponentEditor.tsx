import { useState } from 'react';
import { api, call, type CatalogEntry, type FieldError } from '../api/client';
import { useLoad, type Loaded } from '../load';
import { newKey, type ComponentDraft } from './draft';
import { messagesAt } from './field-errors';
import { FieldMessages, Parameters } from './Parameters';
import { ProblemView } from './Problem';
import { typeDetail } from './type-detail';

/**
 * One component of the application being composed: name, type, properties
 * and traits (only those that apply to its type are offered; conflicts are marked).
 */
export function ComponentEditor(props: {
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
