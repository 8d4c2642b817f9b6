import type { Definition } from '#api';
import { RenderError } from '../errors.js';
import { hashOf } from '#kube-core';
import type { CompiledTemplate } from './engine.js';

/** The two engines behind one interface; each compiles a template once. */
export interface TemplateEngines {
  cue: { compile(definition: string, template: string): CompiledTemplate; close(): Promise<void> };
  handlebars: {
    compile(
      definition: string,
      schematic: { template: string; parameters?: Record<string, unknown> },
    ): CompiledTemplate;
    close?(): Promise<void>;
  };
}

/**
 * Picks the engine a definition's schematic asks for and keeps compiled
 * templates keyed by the schematic's content, so an edited definition is
 * recompiled and an unchanged one never is.
 */
export class TemplateCompiler {
  private readonly compiled = new Map<string, CompiledTemplate>();

  constructor(
    private readonly engines: TemplateEngines,
    private readonly maxEntries = 500,
  ) {}

  compile(definition: Definition): CompiledTemplate {
    const label = `${definition.kind} "${definition.metadata.name}"`;
    const schematic = definition.spec.schematic;
    const key = `${label}:${hashOf(schematic)}`;
    const hit = this.compiled.get(key);
    if (hit) return hit;
    let template: CompiledTemplate;
    if (schematic.cue) template = this.engines.cue.compile(label, schematic.cue.template);
    else if (schematic.handlebars) template = this.engines.handlebars.compile(label, schematic.handlebars);
    else throw new RenderError(`${label} has no schematic (cue or handlebars)`, {}, 'definition');
    if (this.compiled.size >= this.maxEntries) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(key, template);
    return template;
  }

  async close(): Promise<void> {
    await this.engines.cue.close();
    await this.engines.handlebars.close?.();
  }
}
