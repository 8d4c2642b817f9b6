/** The server's view of the patch module (src/patch): the patch kinds, patching, server-side apply, managedFields. */
export {
  applyPatch,
  patchKindFromContentType,
  serverSideApply,
  updateManagedFields,
  type Gvk,
  type PatchKind,
} from '../patch/index.js';
