import { canExpand, type ObjectFieldTemplateProps } from '@rjsf/utils';

/**
 * react-jsonschema-form's object layout, with nested objects folded
 * (<details>) unless required, filled in or holding an error: a type such as
 * webservice has dozens of optional nested fields (probes, volumes…).
 */
export function ObjectTemplate(props: ObjectFieldTemplateProps) {
  const {
    fieldPathId,
    title,
    description,
    properties,
    formData,
    errorSchema,
    required,
    schema,
    uiSchema,
    registry,
  } = props;
  const { AddButton } = registry.templates.ButtonTemplates;
  const body = (
    <>
      {description && <div className="field-description">{description}</div>}
      {properties.filter((p) => !p.hidden).map((p) => p.content)}
      {canExpand(schema, uiSchema, formData) && (
        <AddButton
          id={`${fieldPathId.$id}-add`}
          className="rjsf-object-property-expand"
          onClick={props.onAddProperty}
          disabled={props.disabled || props.readonly}
          uiSchema={uiSchema}
          registry={registry}
        />
      )}
    </>
  );
  if (fieldPathId.path.length === 0) return <fieldset id={fieldPathId.$id}>{body}</fieldset>;
  const filled = !!formData && typeof formData === 'object' && Object.keys(formData).length > 0;
  const invalid = !!errorSchema && Object.keys(errorSchema).length > 0;
  return (
    <details className="nested" id={fieldPathId.$id} open={required || filled || invalid}>
      <summary>
        {title}
        {required && <span className="required">*</span>}
      </summary>
      {body}
    </details>
  );
}
