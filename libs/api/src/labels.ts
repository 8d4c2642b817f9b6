/**
 * Every label, annotation and finalizer name this project sets or reads on
 * objects, KubeVela's included. Other tools select and act by these, so they
 * are fixed: change one and clusters already running see a stranger.
 */

/** KubeVela's labels on everything the renderer renders; tools select by them. */
export const LABELS = {
  appName: 'app.oam.dev/name',
  appNamespace: 'app.oam.dev/namespace',
  appRevision: 'app.oam.dev/appRevision',
  component: 'app.oam.dev/component',
  resourceType: 'app.oam.dev/resourceType',
  workloadType: 'workload.oam.dev/type',
  traitType: 'trait.oam.dev/type',
  traitResource: 'trait.oam.dev/resource',
} as const;

/** On definitions the controller installed (value: its field manager), so it only updates its own. */
export const INSTALLED_BY_LABEL = 'definition.oam.dev/installed-by';

export const ANNOTATIONS = {
  /** Hash of the intent last applied, so an unchanged intent is not sent again. */
  appliedHash: 'app.oam.dev/applied-hash',
  /** Fields left to another manager (`spec.replicas` for an HPA), comma separated. */
  handedOver: 'app.oam.dev/handed-over-fields',
  /** On the heartbeat Lease: the controller's version. */
  controllerVersion: 'oam.dev/controller-version',
  /** On definitions the controller installed: hash of the spec it installed. */
  contentHash: 'definition.oam.dev/content-hash',
  /**
   * On objects rendered from a standalone Component (on its own or inside an
   * Application): its name. Whoever renders that Component may take them over
   * in place, and no one else.
   */
  fromComponent: 'component.oam.dev/name',
  /** KubeVela's, on an Application: templates see it as `context.publishVersion`. */
  publishVersion: 'app.oam.dev/publishVersion',
} as const;

/** KubeVela's annotation for a definition's one-line description. */
export const DESCRIPTION_ANNOTATION = 'definition.oam.dev/description';

/**
 * The annotations of revisions and rollback, shared by the controller (which
 * acts on them), the CLI and the REST API (which set and show them).
 */
export const REVISION_ANNOTATIONS = {
  /** On an Application: roll back to this revision number ("3"; "v3" and "<app>-v3" work too). Cleared once done. */
  rollbackTo: 'app.oam.dev/rollback-to-revision',
  /** On an ApplicationRevision: one line saying what changed from the revision before it. */
  changeSummary: 'app.oam.dev/change-summary',
  /** On an ApplicationRevision a rollback made: the number of the revision it restored. */
  rollbackOf: 'app.oam.dev/rollback-of-revision',
} as const;

/** Deletion waits for the controller to remove what it applied. */
export const FINALIZER = 'app.oam.dev/cleanup';
