/** apps/v1 and batch/v1 semantic checks (pkg/apis/apps/validation, pkg/apis/batch/validation). */
import { type FieldCause, forbidden, goRepr, invalid, invalidRendered, required } from '../field-errors.js';
import { labelSelectorMatches } from '#kube-core';
import { regexError } from '../syntax.js';
import { type Obj, asObj, isEmptySelector, nonNegative, validateLabelSelector } from './meta-checks.js';
import { validatePodTemplate } from './pod-checks.js';

/** How Go prints an empty *metav1.LabelSelector (its generated String()). */
const EMPTY_SELECTOR =
  '&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}';

function renderLabels(labels: unknown): string {
  return labels && typeof labels === 'object' ? goRepr(labels, true) : 'map[string]string(nil)';
}

/** Selector required, non-empty, and matching the pod template's labels. */
function validateSelectorAndTemplate(
  spec: Obj,
  emptyDetail: string,
  restartPolicies: string[],
): FieldCause[] {
  const causes: FieldCause[] = [];
  if (spec.selector === undefined || spec.selector === null) {
    causes.push(required('spec.selector'));
  } else {
    causes.push(...validateLabelSelector(spec.selector, 'spec.selector'));
    if (isEmptySelector(spec.selector))
      causes.push(invalidRendered('spec.selector', EMPTY_SELECTOR, emptyDetail));
  }
  const template = asObj(spec.template);
  const labels = asObj(template.metadata).labels;
  if (spec.selector && !isEmptySelector(spec.selector) && !labelSelectorMatches(spec.selector, labels)) {
    causes.push(
      invalidRendered(
        'spec.template.metadata.labels',
        renderLabels(labels),
        '`selector` does not match template `labels`',
      ),
    );
  }
  causes.push(...validatePodTemplate(spec.template, 'spec.template', restartPolicies));
  return causes;
}

const ALWAYS = ['Always'];
const PERCENT = /^[0-9]+%$/;

function validateIntOrPercent(value: unknown, field: string): FieldCause[] {
  if (typeof value === 'number') return nonNegative(value, field);
  if (typeof value === 'string' && !PERCENT.test(value)) {
    return [
      invalid(
        field,
        value,
        regexError(
          "a valid percent string must be a numeric string followed by an ending '%'",
          '[0-9]+%',
          '1%',
          '93%',
        ),
      ),
    ];
  }
  return [];
}

function validateDeploymentStrategy(strategy: unknown): FieldCause[] {
  const s = asObj(strategy);
  if (s.type === 'Recreate' && s.rollingUpdate) {
    return [
      forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'"),
    ];
  }
  const rolling = asObj(s.rollingUpdate);
  const causes = [
    ...validateIntOrPercent(rolling.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable'),
    ...validateIntOrPercent(rolling.maxSurge, 'spec.strategy.rollingUpdate.maxSurge'),
  ];
  const isZero = (v: unknown) => v === 0 || v === '0%';
  if (isZero(rolling.maxUnavailable) && isZero(rolling.maxSurge)) {
    causes.push(
      invalid(
        'spec.strategy.rollingUpdate.maxUnavailable',
        rolling.maxUnavailable,
        'may not be 0 when `maxSurge` is 0',
      ),
    );
  }
  return causes;
}

function replicatedCommon(spec: Obj): FieldCause[] {
  return [
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  ];
}

export function validateDeployment(obj: Obj): FieldCause[] {
  const spec = asObj(obj.spec);
  return [
    ...replicatedCommon(spec),
    ...validateSelectorAndTemplate(spec, 'empty selector is invalid for deployment', ALWAYS),
    ...validateDeploymentStrategy(spec.strategy),
    ...nonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'),
  ];
}

export function validateReplicaSet(obj: Obj): FieldCause[] {
  const spec = asObj(obj.spec);
  // kube's ReplicaSet validation reuses the Deployment wording here.
  return [
    ...replicatedCommon(spec),
    ...validateSelectorAndTemplate(spec, 'empty selector is invalid for deployment', ALWAYS),
  ];
}

export function validateStatefulSet(obj: Obj): FieldCause[] {
  const spec = asObj(obj.spec);
  return [
    ...replicatedCommon(spec),
    ...validateSelectorAndTemplate(spec, 'empty selector is invalid for statefulset', ALWAYS),
  ];
}

export function validateDaemonSet(obj: Obj): FieldCause[] {
  const spec = asObj(obj.spec);
  return [
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
    ...validateSelectorAndTemplate(spec, 'empty selector is invalid for daemonset', ALWAYS),
  ];
}

const JOB_RESTART_POLICIES = ['OnFailure', 'Never'];

function validateJobSpec(spec: Obj, base: string): FieldCause[] {
  const causes = [
    ...nonNegative(spec.parallelism, `${base}.parallelism`),
    ...nonNegative(spec.completions, `${base}.completions`),
    ...nonNegative(spec.backoffLimit, `${base}.backoffLimit`),
  ];
  if (typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds <= 0) {
    causes.push(
      invalid(`${base}.activeDeadlineSeconds`, spec.activeDeadlineSeconds, 'must be greater than 0'),
    );
  }
  if (spec.selector) causes.push(...validateLabelSelector(spec.selector, `${base}.selector`));
  causes.push(...validatePodTemplate(spec.template, `${base}.template`, JOB_RESTART_POLICIES));
  return causes;
}

export function validateJob(obj: Obj): FieldCause[] {
  return validateJobSpec(asObj(obj.spec), 'spec');
}

/** Standard 5-field cron or a descriptor (@hourly, @every 1h...), as robfig/cron's parser accepts. */
function validateSchedule(schedule: unknown): FieldCause[] {
  if (typeof schedule !== 'string' || schedule.length === 0) return [required('spec.schedule')];
  if (schedule.startsWith('@')) return [];
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) {
    return [
      invalid('spec.schedule', schedule, `expected exactly 5 fields, found ${fields.length}: ${schedule}`),
    ];
  }
  return [];
}

export function validateCronJob(obj: Obj): FieldCause[] {
  const spec = asObj(obj.spec);
  const jobTemplate = asObj(spec.jobTemplate);
  return [
    ...validateSchedule(spec.schedule),
    ...nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'),
    ...nonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'),
    ...nonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'),
    ...validateJobSpec(asObj(jobTemplate.spec), 'spec.jobTemplate.spec'),
  ];
}
