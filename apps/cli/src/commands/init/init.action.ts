import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { createRenderer, renderSources } from '#renderer';
import { EXIT } from '../../output/exit-codes.js';
import { UserError } from '../../output/user-error.js';
import { builtinDefinitions } from '../def/catalog.js';
import type { InitFlags } from './index.js';
import { componentProperties, DEFAULT_IMAGE, DEFAULT_TYPE, scaffold, traitFor } from './scaffold.js';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Asks for a missing name, type or image only on a terminal; elsewhere takes
 * the defaults. Renders the files offline before writing them (so `oam up`
 * accepts them as they are) and never overwrites without --force.
 */
export async function runInit(nameArg: string | undefined, flags: InitFlags): Promise<number> {
  const dir = resolve(flags.dir);
  const defaults = { name: toDnsLabel(basename(dir)), type: DEFAULT_TYPE, image: DEFAULT_IMAGE };
  const answers = await askMissing({ name: nameArg, type: flags.type, image: flags.image }, defaults);
  const name = answers.name;
  if (!DNS_LABEL.test(name) || name.length > 63)
    throw new UserError(
      `"${name}" is not a valid name: lower-case letters, digits and "-", starting and ending with a letter or digit, at most 63 characters`,
    );
  const builtins = await builtinDefinitions();
  const definitions = builtins.filter((d) => d.type === 'component');
  const found = definitions.find((d) => d.definition.metadata.name === answers.type);
  if (!found)
    throw new UserError(
      `--type ${answers.type}: no such component type (built in: ${definitions.map((d) => d.definition.metadata.name).join(', ')})`,
    );
  const definition = found.definition;
  const handle = createRenderer();
  let files;
  try {
    const schema = await handle.compiler.compile(definition).parameterSchema();
    const properties = componentProperties(schema, answers.image, answers.type);
    if (!properties)
      throw new UserError(
        `--type ${answers.type} takes no image (\`oam def show ${answers.type}\` shows what it takes): write its properties by hand, or scaffold another type`,
      );
    files = scaffold(
      { name, definition, image: answers.image, trait: traitFor(definition) },
      properties,
      flags.split,
    );
    // Our own check: what we write renders, as `oam up` will render it.
    const result = await renderSources(
      files.map((f) => ({ path: f.path, text: f.text })),
      handle.renderer,
      { builtins: builtins.map((d) => d.definition) },
    );
    if (result.errors.length > 0)
      throw new Error(`the scaffold does not render: ${result.errors.map((e) => e.message).join('; ')}`);
  } finally {
    await handle.close();
  }
  const existing = files.map((f) => join(dir, f.path)).filter((p) => existsSync(p));
  if (existing.length > 0 && !flags.force)
    throw new UserError(
      `${existing.map((p) => relative(process.cwd(), p) || p).join(', ')} already exist: pass --force to overwrite`,
      EXIT.INVALID,
    );
  mkdirSync(dir, { recursive: true });
  for (const f of files) writeFileSync(join(dir, f.path), f.text);
  const shown = files.map((f) => displayPath(join(dir, f.path)));
  for (const path of shown) process.stdout.write(`wrote ${path}\n`);
  process.stdout.write(
    `next: \`oam up ${shown.map((p) => `-f ${p}`).join(' ')}\` deploys it, \`oam def show ${answers.type}\` lists its properties\n`,
  );
  return EXIT.OK;
}

async function askMissing(
  given: { name?: string; type?: string; image?: string },
  defaults: { name: string; type: string; image: string },
): Promise<{ name: string; type: string; image: string }> {
  const missing = (['name', 'type', 'image'] as const).filter((k) => given[k] === undefined);
  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  if (missing.length === 0 || !interactive)
    return {
      name: given.name ?? defaults.name,
      type: given.type ?? defaults.type,
      image: given.image ?? defaults.image,
    };
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const labels = { name: 'Application name', type: 'Component type', image: 'Container image' };
  const out = {
    ...defaults,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
  };
  try {
    for (const key of missing) {
      const answer = (await rl.question(`${labels[key]} [${defaults[key]}]: `)).trim();
      out[key] = answer || defaults[key];
    }
  } finally {
    rl.close();
  }
  return out;
}

/** A folder name as a Kubernetes name: `My App_2` → `my-app-2`. */
function toDnsLabel(text: string): string {
  const label = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return label || 'app';
}

/** Relative to where the user is when below it, else absolute. */
function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}
