import { stringify } from 'yaml';

/**
 * YAML that kubectl and client-go read back as the same values. They read YAML 1.1
 * (go-yaml v2), where an unquoted `yes`, `on`, `y` or `off` is a boolean and `1:20` a
 * number; the `yaml` package writes YAML 1.2, where those are strings, and leaves them
 * unquoted: a label `exposed: "yes"` came out as `exposed: yes` and kubectl refused the
 * object ("cannot unmarshal bool into ... labels of type string"). Writing as YAML 1.1
 * quotes every such string, and YAML 1.2 readers (ours) read the result the same.
 */
export function toKubeYaml(value: unknown, options: { sortKeys?: boolean } = {}): string {
  return stringify(value, { version: '1.1', lineWidth: 0, sortMapEntries: options.sortKeys ?? false });
}
