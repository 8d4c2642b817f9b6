/**
 * Container-level facts the simulated kubelet reports: the pod's container
 * lists, image references normalised as a runtime would, and the per-container
 * status entries. Nothing runs, so IDs are `simulated://` and say so rather
 * than inventing digests.
 */
import { createHash } from 'node:crypto';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IContainerState } from 'kubernetes-models/v1/ContainerState';
import type { IContainerStatus } from 'kubernetes-models/v1/ContainerStatus';
import type { Pod } from './sim.js';

/** Docker-style normalisation of an image reference, as container runtimes report it. */
export function normalizeImage(image: string): string {
  let ref = image;
  const first = ref.split('/')[0];
  const hasRegistry =
    ref.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry) ref = `docker.io/${ref.includes('/') ? ref : `library/${ref}`}`;
  const lastPart = ref.slice(ref.lastIndexOf('/') + 1);
  if (!lastPart.includes(':') && !lastPart.includes('@')) ref += ':latest';
  return ref;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** No image is pulled, so there is no digest to report: the ID says so instead of making one up. */
export function imageId(image: string): string {
  return `simulated://${normalizeImage(image)}`;
}

export function containersOf(pod: Pod): IContainer[] {
  return pod.spec!.containers ?? [];
}

export function initContainersOf(pod: Pod): IContainer[] {
  return pod.spec!.initContainers ?? [];
}

function containerId(pod: Pod, container: IContainer, restarts: number): string {
  return `simulated://${digest(`${pod.metadata.uid}/${container.name}/${restarts}`)}`;
}

/** One entry of containerStatuses / initContainerStatuses for the given state. */
export function containerStatus(
  pod: Pod,
  c: IContainer,
  state: IContainerState,
  extra: {
    ready?: boolean;
    started?: boolean;
    restartCount?: number;
    lastState?: IContainerState;
    containerId?: string;
  } = {},
): IContainerStatus {
  const restartCount = extra.restartCount ?? 0;
  const running = Boolean(state.running || state.terminated);
  const image = String(c.image ?? '');
  return {
    name: c.name,
    state,
    lastState: extra.lastState ?? {},
    ready: extra.ready ?? false,
    restartCount,
    image: normalizeImage(image),
    imageID: running ? imageId(image) : '',
    ...(running ? { containerID: extra.containerId ?? containerId(pod, c, restartCount) } : {}),
    started: extra.started ?? false,
  };
}
