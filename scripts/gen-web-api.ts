// `npm run gen:web-api`: writes the web page's client types from the REST API's OpenAPI document.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEB_API_TYPES, webApiTypes } from './web-api-types.js';

const root = process.cwd();
writeFileSync(join(root, WEB_API_TYPES), await webApiTypes());
process.stdout.write(`wrote ${WEB_API_TYPES}\n`);
