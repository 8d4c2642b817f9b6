/** The OAM controller: reconciles Applications into running, healthy workloads. */
export { startController, type RunningController } from './start-controller.js';
export { ControllerModule } from './controller.module.js';
export { ControllerStartError } from './controller.runner.js';
export type { ControllerOptions } from './options.js';
export { DependsOnWorkflow } from './workflow/depends-on.js';
export type {
  ApplyRequest,
  ComponentApplied,
  Held,
  Workflow,
  WorkflowComponent,
  WorkflowPhase,
  WorkflowReport,
  WorkflowRun,
} from './workflow/workflow.js';
