// Regenerates messages.json, the field tables the protobuf decoder uses, from the
// generated.proto files of k8s.io/api and k8s.io/apimachinery in the Go module cache:
//   node libs/kube-server/src/protobuf/gen-messages.mjs /root/go/pkg/mod/k8s.io/api@v0.37.2 /root/go/pkg/mod/k8s.io/apimachinery@v0.37.2
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const [api, machinery] = process.argv.slice(2);
if (!api || !machinery) throw new Error('usage: gen-messages.mjs <k8s.io/api dir> <k8s.io/apimachinery dir>');
const files = [
  ...[
    'core/v1',
    'apps/v1',
    'batch/v1',
    'autoscaling/v1',
    'autoscaling/v2',
    'networking/v1',
    'coordination/v1',
    'rbac/v1',
    'policy/v1',
    'events/v1',
    'authentication/v1',
  ].map((p) => join(api, p, 'generated.proto')),
  ...['pkg/apis/meta/v1', 'pkg/runtime', 'pkg/runtime/schema', 'pkg/util/intstr', 'pkg/api/resource'].map(
    (p) => join(machinery, p, 'generated.proto'),
  ),
];
const SCALARS = new Set([
  'string',
  'bytes',
  'bool',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'double',
  'float',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
]);
const messages = {};
for (const file of files) {
  const text = readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '');
  const pkg = /^package\s+([\w.]+);/m.exec(text)[1];
  const qualify = (t) =>
    SCALARS.has(t) ? t : t.startsWith('.') ? t.slice(1) : t.includes('.') ? t : `${pkg}.${t}`;
  for (const m of text.matchAll(/^message\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const fields = [];
    for (const f of m[2].matchAll(/^\s*(optional|repeated)\s+([\w.]+)\s+(\w+)\s*=\s*(\d+)/gm)) {
      fields.push([Number(f[4]), f[3], f[1] === 'repeated' ? 'r' : 's', qualify(f[2])]);
    }
    for (const f of m[2].matchAll(/^\s*map<\s*([\w.]+)\s*,\s*([\w.]+)\s*>\s+(\w+)\s*=\s*(\d+)/gm)) {
      fields.push([Number(f[4]), f[3], 'm', qualify(f[1]), qualify(f[2])]);
    }
    messages[`${pkg}.${m[1]}`] = fields.sort((a, b) => a[0] - b[0]);
  }
}
const out = join(dirname(fileURLToPath(import.meta.url)), 'messages.json');
writeFileSync(out, JSON.stringify(messages));
console.log(`${Object.keys(messages).length} messages → ${out}`);
