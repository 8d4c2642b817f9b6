import { type TypedObject } from '#kube-core';
import type { RenderContext } from '../engines/engine.js';
import { RenderErrors, type RenderError } from '../errors.js';
import type { AppSpec } from '../resolve/index.js';
import type { ClusterInfo } from './context.js';

export interface RenderedObject {
  object: TypedObject;
  component: string;
  role: 'workload' | 'trait';
  /** The trait type that produced it (for workloads: undefined). */
  traitType?: string;
  outputName?: string;
  /**
   * Field paths the controller must leave out when applying, e.g.
   * `['spec', 'replicas']` when a HorizontalPodAutoscaler owns them, so the
   * controller and the HPA never fight.
   */
  omitOnApply: string[][];
}

export interface RenderedComponent {
  name: string;
  type: string;
  /** The `context` its templates saw; health policies read it too (`context.appName`, ...). */
  context: RenderContext;
  workload: RenderedObject;
  /** Workload first, then the component's own outputs by name, then each trait's outputs by trait order and name. */
  objects: RenderedObject[];
}

export interface RenderedApp {
  app: AppSpec;
  components: RenderedComponent[];
  /** Every object in the stable order: component order, then each component's `objects`. */
  objects: RenderedObject[];
  warnings: RenderError[];
}

export interface RenderOptions {
  /** Unknown properties are errors instead of warnings. */
  strict?: boolean;
  /**
   * The cluster this render is for (templates see its version as `context.clusterVersion`);
   * default: the renderer's own (`RendererOptions.cluster`, else DEFAULT_CLUSTER).
   * The controller passes the live cluster's (`clusterVersionOf` its `/version`).
   */
  cluster?: ClusterInfo;
  /** Whose render it is, for fair turns at the workers (default: the Application's namespace). */
  tenant?: string;
  /** Stops the render: queued evaluations are dropped, running ones' workers replaced. */
  signal?: AbortSignal;
}

/**
 * A render that failed: the errors, plus the warnings found on the way, which
 * the user needs as much (an unknown field is often why a required one is missing).
 */
export class RenderFailure extends RenderErrors {
  constructor(
    errors: RenderError[],
    readonly warnings: RenderError[],
  ) {
    super(errors);
    this.name = 'RenderFailure';
  }
}
