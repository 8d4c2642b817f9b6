export { applyPatch, PATCH_STRATEGY } from './apply-patch.js';
