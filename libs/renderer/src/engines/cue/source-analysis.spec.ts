import { PATCH_STRATEGY } from '../../patch/index.js';
import { cleanCueMessage, contextKeysRead } from './cue-errors.js';
import { fieldDeclarations, joinPath } from './cue-fields.js';
import { tokenize } from './cue-lexer.js';
import { declarationLine, errorPath, sourcePosition } from './template-lines.js';
import { extractPatchKeys } from './patch-keys.js';
import { TemplateSource } from './template-source.js';
import { SIDECAR_TRAIT, WEBSERVICE } from './testdata/fixtures.js';

const patchKeysOf = (source: string) => extractPatchKeys(fieldDeclarations(source));

describe('patch key extraction', () => {
  it('finds keys on nested lists, with [] for every item of an enclosing list', () => {
    expect(patchKeysOf(SIDECAR_TRAIT)).toEqual({
      'spec.template.spec.containers': 'name',
      'spec.template.spec.containers[].env': 'name',
    });
  });

  it('follows nested braces, comprehension blocks and list comprehensions', () => {
    const source = `patch: {
	metadata: annotations: {"a": "b"}
	spec: {
		template: {
			spec: {
				if parameter.sidecar != _|_ {
					// +patchKey=name
					containers: [ for c in parameter.containers {
						name: c.name
						// +patchKey=containerPort
						ports: [{containerPort: 80}]
					}]
				}
				// +patchKey=name
				volumes: [{name: "x", emptyDir: {}}]
				// +patchStrategy=retainKeys
				strategy: type: "Recreate"
			}
		}
	}
}
// +patchKey=ignoredOutsidePatch
output: spec: containers: []
`;
    expect(patchKeysOf(source)).toEqual({
      'spec.template.spec.containers': 'name',
      'spec.template.spec.containers[].ports': 'containerPort',
      'spec.template.spec.volumes': 'name',
      'spec.template.spec.strategy.type': PATCH_STRATEGY.retainKeys,
    });
  });

  it('is not fooled by braces and comments inside strings', () => {
    const source = `patch: spec: {
	note: "a { brace [ and // not a comment \\(strings.Join(["}", "]"], "")) end"
	raw: #"a "quoted" { "#
	// +patchKey=name
	containers: [{name: "c"}]
}
`;
    expect(patchKeysOf(source)).toEqual({ 'spec.containers': 'name' });
  });

  it('supports patchStrategy=replace', () => {
    const source = `patch: spec: {\n\t// +patchStrategy=replace\n\ttolerations: []\n}\n`;
    expect(patchKeysOf(source)).toEqual({ 'spec.tolerations': PATCH_STRATEGY.replace });
  });
});

describe('field declarations', () => {
  it('joins paths with dots and [] for list items', () => {
    expect(joinPath(['spec', 'containers', '[]', 'env'])).toBe('spec.containers[].env');
  });

  it('lists top-level fields, including those inside top-level if blocks, but not let bodies', () => {
    const source = `import "strings"
let helper = {inner: 1}
_hidden: 1
#Def: {a: int}
mountsArray: {pvc: []}
if true {
	conditional: 1
}
output: {apiVersion: "v1"}
"quoted-label": 1
`;
    expect(new TemplateSource(source).topLevelFields()).toEqual(['mountsArray', 'conditional', 'output']);
  });

  it('keeps line numbers across multi-line strings', () => {
    const tokens = tokenize('a: """\n\tx\n\t"""\nb: 1\n');
    expect(tokens.find((t) => t.text === 'b')!.line).toBe(4);
  });
});

describe('template sources', () => {
  it('hides helper fields behind let aliases, keeping imports first', () => {
    const source = new TemplateSource(WEBSERVICE).forEvaluation({ image: 'x' }, { name: 'api' });
    expect(source.startsWith('import (')).toBe(true);
    expect(source).toContain('parameter: _, _mountsArray: {');
    expect(source).toContain('\n_exposePorts: [');
    expect(source).toContain('let mountsArray = _mountsArray');
    expect(source).toContain('let exposePorts = _exposePorts');
    expect(source).toContain('_context: {"name":"api"}');
  });

  it('makes parameter a definition for the OpenAPI export', () => {
    const source = new TemplateSource(WEBSERVICE).forSchema();
    expect(source).toContain('\n#parameter: {');
    expect(source).toContain('let parameter = #parameter');
    expect(source).toContain('\n_output: {');
  });

  it('declares no alias nobody reads (CUE rejects unreferenced lets)', () => {
    const source = new TemplateSource(
      'output: {apiVersion: "v1", kind: "ConfigMap"}\nunused: 1\n',
    ).forEvaluation({}, { name: 'x' });
    expect(source).not.toContain('let ');
    expect(source).toContain('_unused: 1');
  });

  it('evaluates a `[...X]` list in patch as `[X]`, keeping offsets and lines', () => {
    const text = 'patch: spec: containers: [...{resources: {}}]\nparameter: {}\nkeep: [...string]\n';
    const template = new TemplateSource(text);
    const source = template.forEvaluation({}, {});
    expect(source).toContain('patch: spec: containers: [   {resources: {}}]\n');
    // Only lists inside patch; the schema export and the template text are left as written.
    expect(source).toContain('_keep: [...string]');
    expect(template.forSchema()).toContain('containers: [...{resources: {}}]');
    expect(template.text).toBe(text);
  });
});

describe('context keys and messages', () => {
  it('finds every context key a template reads', () => {
    expect(contextKeysRead(WEBSERVICE)).toEqual(['name', 'appName', 'config']);
    expect(
      contextKeysRead(
        'a: context.output.status.x\nb: context["podName"]\nc: mycontext.x\nd: "\\(context.nodeName)"\n',
      ),
    ).toEqual(['output', 'podName', 'nodeName']);
  });

  it('cleans CUE messages of our hidden names and the marshal prefix', () => {
    expect(cleanCueMessage('cue: marshal error: _exposePorts: cannot reference optional field: ports')).toBe(
      'exposePorts: cannot reference optional field: ports',
    );
    expect(cleanCueMessage('#parameter.a: conflicting values\n  more')).toBe(
      'parameter.a: conflicting values; more',
    );
  });
});

describe('template lines of CUE errors', () => {
  it('reads the field path a message starts with', () => {
    expect(errorPath('outputs."my-svc".spec.ports.0.port: conflicting values 1 and 2')).toEqual([
      'outputs',
      'my-svc',
      'spec',
      'ports',
      '0',
      'port',
    ]);
    expect(errorPath("expected operand, found '}'")).toBeUndefined();
  });

  it('finds the declaration of the longest matching path, hidden fields and list items included', () => {
    const source = `_helper: {
	value: 1
}
outputs: svc: {
	spec: ports: [{
		port: 80
	}]
}
`;
    const decls = fieldDeclarations(source);
    expect(declarationLine(['outputs', 'svc', 'spec', 'ports', '0', 'port'], decls)).toBe(6);
    expect(declarationLine(['outputs', 'svc', 'metadata'], decls)).toBe(4);
    expect(declarationLine(['helper', 'value'], decls)).toBe(2);
    expect(declarationLine(['nothing'], decls)).toBeUndefined();
  });

  it("takes CUE's own position when it is in the template, and drops it from the message", () => {
    expect(sourcePosition('3:1: unreferenced alias', 'a\nb\nc\n')).toBe(3);
    expect(sourcePosition('9:1: unreferenced alias', 'a\nb\n')).toBeUndefined();
    expect(cleanCueMessage('3:1: unreferenced alias or let clause x')).toBe(
      'unreferenced alias or let clause x',
    );
  });
});
