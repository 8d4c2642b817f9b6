import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '#kube-core';

/** One object of deploy/ and the file it came from (for messages). */
export interface DeployObject {
  object: KubeObject;
  file: string;
}

interface Kustomization {
  resources?: string[];
  images?: { name: string; newName?: string; newTag?: string }[];
}

const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'images']);

/**
 * The objects `kubectl apply -k deploy/` applies, read without kubectl: the
 * subset of kustomize deploy/ uses (`resources` naming files or folders with
 * their own kustomization.yaml, `images` rewriting container images), in
 * listed order. Anything else in a kustomization is refused rather than
 * silently ignored. `image` replaces the image of every Deployment (the
 * controller's and the API's run the same `oam` image: `oam install --image`).
 */
export function readDeploy(dir: string, options: { image?: string } = {}): DeployObject[] {
  const objects = readKustomization(dir, dir);
  if (options.image) setImage(objects, options.image);
  return objects;
}

function readKustomization(dir: string, root: string): DeployObject[] {
  const file = join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${relative(root, file) || file}: no kustomization.yaml`);
  const k = parseAllDocuments(readFileSync(file, 'utf8'))[0]?.toJS() as Kustomization | null;
  for (const key of Object.keys(k ?? {}))
    if (!SUPPORTED.has(key))
      throw new Error(`${file}: field "${key}" is not supported here (only resources and images)`);
  const out: DeployObject[] = [];
  for (const entry of k?.resources ?? []) {
    const path = join(dir, entry);
    if (!existsSync(path)) throw new Error(`${file}: resources lists ${entry}, which does not exist`);
    if (statSync(path).isDirectory()) out.push(...readKustomization(path, root));
    else
      for (const doc of parseAllDocuments(readFileSync(path, 'utf8'))) {
        if (doc.errors.length) throw new Error(`${path}: ${doc.errors[0].message}`);
        const object = doc.toJS() as KubeObject | null;
        if (object) out.push({ object, file: relative(root, path) });
      }
  }
  for (const image of k?.images ?? []) {
    const replacement = `${image.newName ?? image.name}${image.newTag ? `:${image.newTag}` : ''}`;
    for (const c of containersOf(out)) if (imageName(c.image) === image.name) c.image = replacement;
  }
  return out;
}

function setImage(objects: DeployObject[], image: string): void {
  const containers = containersOf(objects.filter((o) => o.object.kind === 'Deployment'));
  if (containers.length === 0) throw new Error('deploy/ has no Deployment to set the image of');
  for (const c of containers) c.image = image;
}

interface Container {
  name: string;
  image?: string;
}

function containersOf(objects: DeployObject[]): Container[] {
  return objects.flatMap(
    (o) =>
      ((o.object.spec as { template?: { spec?: { containers?: Container[] } } } | undefined)?.template?.spec
        ?.containers ?? []) as Container[],
  );
}

/** `registry:5000/repo:tag` → `registry:5000/repo` (a digest too). */
function imageName(image: string | undefined): string {
  if (!image) return '';
  const at = image.indexOf('@');
  const base = at >= 0 ? image.slice(0, at) : image;
  const colon = base.lastIndexOf(':');
  return colon > base.lastIndexOf('/') ? base.slice(0, colon) : base;
}
