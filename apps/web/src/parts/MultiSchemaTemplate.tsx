import type { MultiSchemaFieldTemplateProps } from '@rjsf/utils';

/** rjsf's anyOf/oneOf layout, with a label on the choice of form (its own select has none). */
export function MultiSchemaTemplate({ selector, optionSchemaField }: MultiSchemaFieldTemplateProps) {
  return (
    <div className="anyof">
      <label className="form-group">
        <span className="muted">Given as</span>
        {selector}
      </label>
      {optionSchemaField}
    </div>
  );
}
