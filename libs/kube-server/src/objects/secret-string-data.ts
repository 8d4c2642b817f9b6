import { isJsonObject, type JsonObject, type StoredObject } from '#kube-core';

/**
 * Secret.stringData is write-only: kube's v1 → internal conversion
 * (Convert_v1_Secret_To_core_Secret) merges it into data, base64-encoded and winning
 * over data's own keys, and the internal type has no stringData, so it is never stored
 * or read back. Values that are not strings stay for validation to refuse.
 */
export function foldStringData(secret: StoredObject): void {
  const stringData = secret.stringData;
  if (stringData === undefined || stringData === null) {
    delete secret.stringData;
    return;
  }
  if (!isJsonObject(stringData) || !Object.values(stringData).every((v) => typeof v === 'string')) return;
  if (Object.keys(stringData).length) {
    const data: JsonObject = isJsonObject(secret.data) ? { ...secret.data } : {};
    for (const [key, value] of Object.entries(stringData))
      data[key] = Buffer.from(value as string, 'utf8').toString('base64');
    secret.data = data;
  }
  delete secret.stringData;
}
