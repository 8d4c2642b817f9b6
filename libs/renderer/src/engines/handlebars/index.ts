export {
  createHandlebarsEngine,
  type HandlebarsEngine,
  type HandlebarsEngineOptions,
  type HandlebarsSchematic,
} from './handlebars-engine.js';
