import { useMemo } from 'react';
import type { FieldError } from '../api/client';
import { useLoad } from '../load';
import { errorSchemaAt } from './field-errors';
import { Loading, ProblemView } from './Problem';
import { TypeForm } from './TypeForm';
import { typeDetail, type Kind } from './type-detail';

/** The messages the API gave for one field, listed under it (`id` is what the field's aria-describedby names). */
export function FieldMessages({ id, messages }: { id: string; messages: string[] }) {
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
export function Parameters(props: {
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
