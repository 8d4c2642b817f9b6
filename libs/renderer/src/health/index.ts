export { evaluateHealth, type HealthPolicy, type HealthResult, type LiveState } from './evaluate-health.js';
