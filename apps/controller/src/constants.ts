import type { ResourceKind } from '#runtime';

/** The field manager of everything the controller applies (DESIGN: field managers). */
export const FIELD_MANAGER = 'oam-controller';
/**
 * A second manager that only ever holds fields being handed to someone else
 * (an HPA's `spec.replicas`), so server-side apply keeps them while the
 * controller stops applying them. See apply/handover.ts.
 */
export const HANDOVER_MANAGER = 'oam-controller-handover';
/** Deletion waits for the controller to remove what it applied. */
export const FINALIZER = 'app.oam.dev/cleanup';

export const DEFAULT_SYSTEM_NAMESPACE = 'vela-system';
/** The controller's own namespace: its heartbeat Lease and, on a cluster, its Deployment. */
export const CONTROLLER_NAMESPACE = 'oam-system';
export const HEARTBEAT_LEASE = 'oam-controller-heartbeat';

export const ANNOTATIONS = {
  /** Hash of the intent last applied, so an unchanged intent is not sent again. */
  appliedHash: 'app.oam.dev/applied-hash',
  /** Fields left to another manager (`spec.replicas` for an HPA), comma separated. */
  handedOver: 'app.oam.dev/handed-over-fields',
  /** On the heartbeat Lease: the controller's version. */
  version: 'oam.dev/controller-version',
  /** On definitions the controller installed: hash of the spec it installed. */
  contentHash: 'definition.oam.dev/content-hash',
  /**
   * On objects rendered from a standalone Component (on its own or inside an
   * Application): its name. Whoever renders that Component may take them over
   * in place (apply/ownership.ts), and no one else.
   */
  fromComponent: 'component.oam.dev/name',
} as const;

export const INSTALLED_BY_LABEL = 'definition.oam.dev/installed-by';

const oam = (kind: string, plural: string): ResourceKind => ({
  group: 'core.oam.dev',
  version: 'v1beta1',
  plural,
  kind,
  namespaced: true,
});
export const APPLICATIONS = oam('Application', 'applications');
export const COMPONENT_DEFINITIONS = oam('ComponentDefinition', 'componentdefinitions');
export const TRAIT_DEFINITIONS = oam('TraitDefinition', 'traitdefinitions');
export const COMPONENTS = oam('Component', 'components');
export const TRAITS = oam('Trait', 'traits');
export const APPLICATION_REVISIONS = oam('ApplicationRevision', 'applicationrevisions');
