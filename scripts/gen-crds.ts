/**
 * `npm run gen:crds`: writes deploy/crds/*.yaml and schemas/oam.schema.json
 * from the zod schemas in libs/api. A test fails when the committed files
 * drift from what this writes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatedFiles } from './generated-files.js';

const root = process.cwd();
for (const [path, content] of generatedFiles()) {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
  console.log(`wrote ${path}`);
}
