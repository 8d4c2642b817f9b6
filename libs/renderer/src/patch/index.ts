export { applyPatch, type ApplyPatchOptions } from './apply-patch.js';
export {
  PATCH_STRATEGY,
  addPatchMarker,
  directivesAt,
  markEachList,
  type PatchDirectives,
} from './directives.js';
