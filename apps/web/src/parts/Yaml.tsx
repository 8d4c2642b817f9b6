import { stringify } from 'yaml';

/** An object as YAML, read-only. */
export function Yaml({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="yaml" aria-label={label} tabIndex={0}>
      {stringify(value, { lineWidth: 0 })}
    </pre>
  );
}
