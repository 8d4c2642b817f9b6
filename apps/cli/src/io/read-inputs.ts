import { readFile, readdir, stat } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import type { SourceFile } from '#renderer';
import { UserError } from '../output/user-error.js';

const YAML_EXTENSIONS = new Set(['.yaml', '.yml']);

/**
 * Expands `-f` arguments: a file, a folder (every .yaml/.yml inside,
 * recursively, in sorted order so output is stable), or `-` for stdin.
 */
export async function readInputs(
  paths: readonly string[],
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<SourceFile[]> {
  if (paths.length === 0) throw new UserError('no input: pass -f FILE, -f FOLDER or -f - (stdin)');
  const files: SourceFile[] = [];
  for (const path of paths) {
    if (path === '-') {
      files.push({ path: '<stdin>', text: await readStream(stdin) });
      continue;
    }
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new UserError(`${path}: no such file or folder`);
    if (info.isDirectory()) {
      const found = await listYaml(path);
      if (found.length === 0) throw new UserError(`${path}: no .yaml or .yml files in this folder`);
      for (const file of found) files.push({ path: file, text: await readFile(file, 'utf8') });
    } else {
      files.push({ path: displayPath(path), text: await readFile(path, 'utf8') });
    }
  }
  return files;
}

async function listYaml(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listYaml(full)));
    else if (YAML_EXTENSIONS.has(extname(e.name))) out.push(displayPath(full));
  }
  return out;
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
