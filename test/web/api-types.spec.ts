import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEB_API_TYPES, webApiTypes } from '../../scripts/web-api-types.js';

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');

describe('the web page’s API client types', () => {
  it(`${WEB_API_TYPES} is generated from the current OpenAPI document (run \`npm run gen:web-api\` after changing a route or its schemas)`, async () => {
    expect(readFileSync(join(root, WEB_API_TYPES), 'utf8')).toBe(await webApiTypes());
  });
});
