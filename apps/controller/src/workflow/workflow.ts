import type { DependencyWait } from '#api';
import type { ConditionInput } from '../status/conditions.js';

/**
 * The seam where a workflow decides what the apply stage applies, and when.
 * The default (DependsOnWorkflow) applies every component in `dependsOn`
 * order, each waiting until what it depends on is healthy. KubeVela's steps
 * (`deploy`, `apply-component`, `suspend`, `step-group`) and policies
 * (`override`, `topology`) fit behind the same interface: a step picks
 * components, with property overrides and a target namespace, applies them
 * through `WorkflowRun.apply`, holds the rest, and reports its phase.
 */
export interface Workflow {
  run(run: WorkflowRun): Promise<WorkflowReport>;
}

/** A component of the render as a workflow sees it. */
export interface WorkflowComponent {
  name: string;
  dependsOn: readonly string[];
}

/** What a step asks to be applied now. */
export interface ApplyRequest {
  component: string;
  /** Properties laid over the component's own (KubeVela's `override` policy); absent: as rendered. */
  properties?: Record<string, unknown>;
  /** Where its objects go (KubeVela's `topology` policy); absent: as rendered. */
  namespace?: string;
}

/** What applying one component did. */
export interface ComponentApplied {
  component: string;
  /** Some object of it was written (its health is not known yet). */
  changed: boolean;
  /** Some object of it could not be applied (the Applied condition says which). */
  failed: boolean;
}

/** A component not applied this time, and what it waits for (with each one's health message). */
export interface Held {
  component: string;
  waitingFor: { name: string; why: string }[];
}

/**
 * What the apply stage offers a workflow for one reconcile. Level-triggered:
 * a run starts from what is wanted and what is there, never from what the
 * last run did, except for the waits status recorded.
 */
export interface WorkflowRun {
  /** The rendered components, in the order of the application's spec. */
  components: readonly WorkflowComponent[];
  /** The revision being rolled out: a new one starts waits anew. */
  revision: number;
  /** `status.waiting` as the last reconcile left it. */
  previousWaits: readonly DependencyWait[] | undefined;
  /** The injected Clock's time. */
  nowMs: number;
  /** Whether applying the component would change nothing. */
  upToDate(component: string): boolean;
  /** The component's health, from the cached live objects. */
  health(component: string): Promise<{ healthy: boolean; message?: string }>;
  /** Applies the component's objects now. */
  apply(request: ApplyRequest): Promise<ComponentApplied>;
  /**
   * Leaves the component as it runs: what would change is neither applied
   * nor pruned. A component the workflow neither applies nor holds is held.
   */
  hold(held: Held): Promise<void>;
  /** An Event on the owner. */
  event(type: 'Normal' | 'Warning', reason: string, message: string): void;
}

export type WorkflowPhase = 'succeeded' | 'waiting' | 'suspended' | 'failed';

/** What a run reports, for the owner's status. */
export interface WorkflowReport {
  phase: WorkflowPhase;
  /** Each step's phase (KubeVela's `status.workflow.steps`); the default has one. */
  steps: { name: string; type: string; phase: WorkflowPhase }[];
  /** The components held, as applied (`status.waiting`); the owner is not ready while any is. */
  waits: DependencyWait[];
  /** Held component → why: its `services[]` entry is not healthy and says so. */
  messages: ReadonlyMap<string, string>;
  /** The workflow's own conditions (`DependsOn`). */
  conditions: ConditionInput[];
  /** Look again after this long (a deadline falls); absent: the events of what it reads wake it. */
  requeueAfterMs?: number;
}
