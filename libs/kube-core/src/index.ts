/**
 * Kubernetes primitives written once, shared by every other lib: for now the
 * injectable Clock and the polling wait; object and meta types, GVK/GVR,
 * selectors, owner references, keys, stable JSON and patches move here next.
 */
export { realClock, sleepOn, type Clock, type TimerHandle } from './clock/clock.js';
export { FakeClock } from './clock/fake-clock.js';
export { eventually, type EventuallyOptions } from './wait/eventually.js';
