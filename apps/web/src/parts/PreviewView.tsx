import type { PreviewResult } from '../api/client';
import { Yaml } from './Yaml';

const KIND_ORDER = (o: PreviewResult['objects'][number]) => (o.role === 'workload' ? 0 : 1);

/** What Preview rendered: the workload first, then what each trait adds, each object as YAML. */
export function PreviewView({ result }: { result: PreviewResult }) {
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
