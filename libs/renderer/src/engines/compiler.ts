import type { Definition, Schematic } from '#api';
import { RenderError } from '../errors.js';
import { hashOf } from '#kube-core';
import type { CompiledTemplate } from './engine.js';

/** The two engines behind one interface; each compiles a template once. */
export interface TemplateEngines {
  cue: {
    compile(definition: string, template: string, tenant?: string): CompiledTemplate;
    close(): Promise<void>;
  };
  handlebars: {
    compile(
      definition: string,
      schematic: { template: string; parameters?: Record<string, unknown> },
    ): CompiledTemplate;
    close?(): Promise<void>;
  };
}

/** Hashes of template texts by text: the same (large) string comes back render after render. */
const textHashes = new Map<string, string>();
const MAX_TEXT_HASHES = 1000;

/**
 * A content hash of a schematic, for cache keys. Its template text (16 KB for webservice) is
 * hashed once per distinct text rather than at every render: a Map finds a string it holds
 * by the hash V8 keeps in the string itself.
 */
export function schematicHash(schematic: Schematic): string {
  const engine = schematic.cue ? 'cue' : 'handlebars';
  const text = schematic.cue?.template ?? schematic.handlebars?.template ?? '';
  let hash = textHashes.get(text);
  if (hash === undefined) {
    hash = hashOf(text);
    if (textHashes.size >= MAX_TEXT_HASHES) textHashes.delete(textHashes.keys().next().value!);
    textHashes.set(text, hash);
  }
  const parameters = schematic.handlebars?.parameters;
  return parameters === undefined ? `${engine}:${hash}` : hashOf({ engine, hash, parameters });
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
    // Its namespace is whose turn its own evaluations take: the same text in two namespaces is two templates.
    const namespace = definition.metadata.namespace;
    const key = `${namespace ?? ''}/${label}:${schematicHash(schematic)}`;
    const hit = this.compiled.get(key);
    if (hit) return hit;
    let template: CompiledTemplate;
    if (schematic.cue) template = this.engines.cue.compile(label, schematic.cue.template, namespace);
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
