import type { Application } from '#api';
import { RenderError } from '../errors.js';
import type { SourceInfo } from '../parse/index.js';

/**
 * KubeVela Applications often carry `policies` and `workflow`. This platform
 * stores them but does not act on them yet; saying so beats silently
 * rendering something other than what KubeVela would deploy.
 */
export function unappliedSpecWarnings(app: Application, source: SourceInfo): RenderError[] {
  const object = `Application "${app.metadata.name}"`;
  const line = (field: string) => source.keyLineOf?.(['spec', field]) ?? source.lineOf(['spec', field]);
  const at = (field: string) => ({ file: source.file, line: line(field), object });
  const warnings: RenderError[] = [];
  const policies = app.spec.policies ?? [];
  if (policies.length > 0) {
    const names = policies.map((p) => `"${p.name}" (${p.type})`).join(', ');
    warnings.push(
      new RenderError(
        `spec.policies ${names} ${policies.length === 1 ? 'is' : 'are'} stored but not applied by this platform yet: topology, override and other policies have no effect on what is rendered`,
        at('policies'),
      ),
    );
  }
  if (app.spec.workflow) {
    warnings.push(
      new RenderError(
        'spec.workflow is stored but its steps are not run by this platform yet: every component is applied, in dependsOn order',
        at('workflow'),
      ),
    );
  }
  return warnings;
}
