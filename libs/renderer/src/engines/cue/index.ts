export { createCueEngine, type CueEngine, type CueEngineOptions, type CueTemplate } from './cue-engine.js';
export { TemplateSource } from './template-source.js';
