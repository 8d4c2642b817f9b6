/**
 * The errors of k8s.io/apimachinery's strategicpatch and how patch.go maps them:
 * the mergepatch sentinel errors are 400 or 422, everything else is a plain Go error (500).
 */
import { badRequest, genericInvalid, internalError } from '../status.js';
import { goFormat } from '../values.js';

export const badPatchFormatForPrimitiveList = () => badRequest('invalid patch format of primitive list');
export const badPatchFormatForRetainKeys = () => badRequest('invalid patch format of retainKeys');
export const badPatchFormatForSetElementOrder = () =>
  badRequest('invalid patch format of setElementOrder list');
export const noListOfLists = () => genericInvalid('lists of lists are not supported');
export const patchContentNotMatchRetainKeys = () =>
  genericInvalid("patch content doesn't match retainKeys list");

export const noMergeKey = (item: unknown, key: string) =>
  internalError(`map: ${goFormat(item)} does not contain declared merge key: ${key}`);
export const badPatchType = (type: unknown, patch: unknown) =>
  internalError(`unknown patch type: ${String(type)} in map: ${goFormat(patch)}`);
export const mergingListsNotSupported = () =>
  internalError('merging lists cannot yet be specified in the patch');
export const mismatchedListTypes = (path: string) =>
  internalError(`list items at ${path} must all be maps or all be primitives of one type`);
export const setElementOrderMismatch = (patchList: unknown, key: string, order: unknown) =>
  internalError(
    `The order in patch list:\n${goFormat(patchList)}\n doesn't match $setElementOrder/${key} list:\n${goFormat(order)}\n`,
  );
