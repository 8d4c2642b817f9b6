import { useMemo } from 'react';
import Form from '@rjsf/core';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import { formValidator } from './form-validator';
import { MultiSchemaTemplate } from './MultiSchemaTemplate';
import { ObjectTemplate } from './ObjectTemplate';

const UI = { 'ui:submitButtonOptions': { norender: true } };
const TEMPLATES = { ObjectFieldTemplate: ObjectTemplate, MultiSchemaFieldTemplate: MultiSchemaTemplate };

/** Names the alternatives of anyOf/oneOf by their type ("integer", "string") instead of rjsf's "Option 1". */
function titled(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(titled);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] =
      (k === 'anyOf' || k === 'oneOf') && Array.isArray(v)
        ? v.map((alt: Record<string, unknown>) =>
            titled(alt && !alt.title && typeof alt.type === 'string' ? { ...alt, title: alt.type } : alt),
          )
        : titled(v);
  }
  return out;
}
// Only what the user enters goes into the Application: the definition applies its own defaults.
const DEFAULTS = { emptyObjectFields: 'skipDefaults', arrayMinItems: { populate: 'never' } } as const;

/**
 * A type's parameters as a form generated from its JSON Schema
 * (react-jsonschema-form). Errors come from the API's Preview/Deploy (422),
 * each at its field; the API, which renders, is the judge of validity.
 */
export function TypeForm({
  id,
  schema,
  value,
  onChange,
  errors,
  label,
}: {
  id: string;
  schema: Record<string, unknown>;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  errors?: ErrorSchema;
  label: string;
}) {
  const { $schema: _drop, ...rest } = schema;
  const prepared = useMemo(() => titled(rest) as RJSFSchema, [schema]);
  return (
    <div className="rjsf" role="group" aria-label={label}>
      <Form
        tagName="div"
        idPrefix={id}
        schema={prepared}
        formData={value}
        validator={formValidator}
        uiSchema={UI}
        templates={TEMPLATES}
        experimental_defaultFormStateBehavior={DEFAULTS}
        extraErrors={errors}
        showErrorList={false}
        noHtml5Validate
        onChange={(e) => onChange((e.formData ?? {}) as Record<string, unknown>)}
      />
    </div>
  );
}
