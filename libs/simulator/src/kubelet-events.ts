/**
 * The core/v1 Events the scheduler and kubelet record for a simulated pod. The
 * reasons are the real components' (tools key on them); the messages say the
 * work was simulated, so nothing claims an image pull or a running process.
 */
import { containersOf, initContainersOf } from './kubelet-containers.js';
import type { Pod, Sim } from './sim.js';

/** Scheduled, from default-scheduler, on the bound pod. */
export function scheduledEvent(sim: Sim, bound: Pod, pod: Pod, nodeName: string): void {
  sim.event(
    bound,
    'Normal',
    'Scheduled',
    `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${nodeName}`,
    'default-scheduler',
  );
}

/** Pulled, Created and Started for every container once the pod runs. */
export function startedEvents(sim: Sim, pod: Pod): void {
  for (const c of [...initContainersOf(pod), ...containersOf(pod)]) {
    // The reasons are the kubelet's (tools key on them); the messages must not claim a pull or a process.
    sim.event(
      pod,
      'Normal',
      'Pulled',
      `Container image "${c.image}" not pulled: simulated by oam-local, no container runs`,
      'kubelet',
    );
    sim.event(pod, 'Normal', 'Created', `Created container: ${c.name} (simulated)`, 'kubelet');
    sim.event(
      pod,
      'Normal',
      'Started',
      `Started container ${c.name} (simulated, no process runs)`,
      'kubelet',
    );
  }
}

/** BackOff when a container that exited is to be restarted. */
export function backOffEvent(sim: Sim, pod: Pod, uid: string): void {
  const c = containersOf(pod)[0];
  sim.event(
    pod,
    'Warning',
    'BackOff',
    `Back-off restarting failed container ${c?.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${uid})`,
    'kubelet',
  );
}
