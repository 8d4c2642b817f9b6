export {
  createCueEngine,
  healthRequest,
  type CueEngine,
  type CueEngineOptions,
  type CueTemplate,
  type HealthRequest,
} from './cue-engine.js';
