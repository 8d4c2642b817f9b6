/** HorizontalPodAutoscaler checks (autoscaling/validation), shared by v1 and v2. */
import { type FieldCause, invalid, required } from '../field-errors.js';
import { isValidPathSegmentName } from '../syntax.js';
import { type Obj, asList, asObj } from './meta-checks.js';

const MIN_REPLICAS_LOWER_BOUND = 1;

function validateScaleTargetRef(ref: unknown): FieldCause[] {
  const target = asObj(ref);
  const causes: FieldCause[] = [];
  for (const key of ['kind', 'name'] as const) {
    const field = `spec.scaleTargetRef.${key}`;
    const value = target[key];
    if (typeof value !== 'string' || value.length === 0) causes.push(required(field));
    else for (const msg of isValidPathSegmentName(value)) causes.push(invalid(field, value, msg));
  }
  return causes;
}

/** Which member of a v2 MetricSpec each `type` needs. */
const SOURCE_FIELD: Record<string, string> = {
  Resource: 'resource',
  ContainerResource: 'containerResource',
  Pods: 'pods',
  Object: 'object',
  External: 'external',
};

function validateMetrics(metrics: unknown): FieldCause[] {
  const causes: FieldCause[] = [];
  asList(metrics).forEach((raw, i) => {
    const metric = asObj(raw);
    const at = `spec.metrics[${i}]`;
    if (!metric.type) return causes.push(required(`${at}.type`, 'must specify a metric source type'));
    const sourceField = SOURCE_FIELD[metric.type as string];
    if (!sourceField) return;
    const source = metric[sourceField];
    if (!source) {
      return causes.push(
        required(`${at}.${sourceField}`, 'must populate information for the given metric source'),
      );
    }
    const target = asObj(asObj(source).target);
    const utilization = target.averageUtilization;
    if (typeof utilization === 'number' && utilization <= 0) {
      causes.push(
        invalid(`${at}.${sourceField}.target.averageUtilization`, utilization, 'must be greater than 0'),
      );
    }
  });
  return causes;
}

export function validateHorizontalPodAutoscaler(obj: Obj): FieldCause[] {
  const spec = asObj(obj.spec);
  const causes: FieldCause[] = [];
  const min = spec.minReplicas;
  const max = spec.maxReplicas;
  if (typeof min === 'number' && min < MIN_REPLICAS_LOWER_BOUND) {
    causes.push(
      invalid('spec.minReplicas', min, `must be greater than or equal to ${MIN_REPLICAS_LOWER_BOUND}`),
    );
  }
  if (typeof max === 'number' && max < 1)
    causes.push(invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof min === 'number' && typeof max === 'number' && max < min) {
    causes.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  }
  causes.push(...validateScaleTargetRef(spec.scaleTargetRef));
  const cpu = spec.targetCPUUtilizationPercentage;
  if (typeof cpu === 'number' && cpu < 1) {
    causes.push(invalid('spec.targetCPUUtilizationPercentage', cpu, 'must be greater than or equal to 1'));
  }
  causes.push(...validateMetrics(spec.metrics));
  return causes;
}
