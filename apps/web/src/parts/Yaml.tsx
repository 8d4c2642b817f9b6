import { stringify } from 'yaml';

/** An object as YAML, read-only. */
export function Yaml({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="yaml" aria-label={label} tabIndex={0}>
      {/* As YAML 1.1, which kubectl reads: `yes`, `on`, `0777` stay quoted strings (see toKubeYaml). */}
      {stringify(value, { version: '1.1', lineWidth: 0 })}
    </pre>
  );
}
