import { createRequire } from 'node:module';
import type Handlebars from 'handlebars';

const require = createRequire(import.meta.url);
let loaded: typeof Handlebars | undefined;

/** Handlebars, loaded on first use (about 40 ms of CPU): a process rendering only CUE never loads it. */
export function loadHandlebars(): typeof Handlebars {
  loaded ??= require('handlebars') as typeof Handlebars;
  return loaded;
}
