// Command cue-wasm is the renderer's CUE evaluator: cuelang.org/go (the
// version in go.mod, KubeVela's) compiled to WebAssembly (GOOS=js
// GOARCH=wasm) and run by Node with Go's wasm_exec.js. It registers one
// object, globalThis.__oamCue, whose functions take and return strings:
// every result is JSON, {"ok":true,"value":...} or {"ok":false,"error":"..."}.
// Every entry point recovers from panics and returns them as errors; nothing
// is ever printed.
//
// Traps this program avoids (measured on v0.14.1): a long-lived cue.Context
// keeps every value compiled from source, so templates are compiled once and
// kept by handle, and parameter/context JSON is parsed with encoding/json and
// built with BuildExpr (never CompileString per call); and `outputs` is read
// field by field, as KubeVela does, so optional fields in it never have to be
// concrete.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"syscall/js"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
	"cuelang.org/go/encoding/openapi"
)

// The file name CUE reports positions under.
const templateFile = "template.cue"

var (
	cueCtx    = cuecontext.New()
	templates = map[string]*template{}
)

type template struct {
	source string
	value  cue.Value
	// each lists the paths (inside `patch`) of lists written `[...X]`: compiled
	// as `[X]`, and applied to every item of the workload's list.
	each []string
	// reads lists the parts of `context` the template reads (contextReads),
	// unless readsAll: callers fill in only those.
	reads    [][]string
	readsAll bool
}

// result is what every entry point returns, as JSON.
type result struct {
	OK     bool        `json:"ok"`
	Value  interface{} `json:"value,omitempty"`
	Error  string      `json:"error,omitempty"`
	Errors []cueError  `json:"errors,omitempty"`
}

// cueError is one CUE error: its field path ("parameter.port"), its message
// without the path, and the template line it points at (0 if none).
type cueError struct {
	Path string `json:"path"`
	// Segments is the path as CUE's selectors (quoted where not an identifier).
	Segments []string `json:"segments,omitempty"`
	Message  string   `json:"message"`
	Line     int      `json:"line,omitempty"`
}

func main() {
	api := map[string]interface{}{
		"version":  js.FuncOf(wrap(version)),
		"compile":  js.FuncOf(wrap(compile)),
		"release":  js.FuncOf(wrap(release)),
		"render":   js.FuncOf(wrap(render)),
		"evaluate": js.FuncOf(wrap(evaluate)),
		"vet":      js.FuncOf(wrap(vet)),
		"openapi":  js.FuncOf(wrap(openapiSchema)),
		"schema":   js.FuncOf(wrap(jsonSchema)),
		"comments": js.FuncOf(wrap(comments)),
		// Test hooks: a panic in an entry point (recovered, an error) and one in a
		// goroutine (unrecoverable: the runtime dies, as on out of memory).
		"panic": js.FuncOf(wrap(func([]string) result { panic("deliberate panic (test hook)") })),
		"crash": js.FuncOf(wrap(func([]string) result {
			done := make(chan struct{})
			go func() { panic("deliberate crash (test hook)") }()
			<-done
			return ok(nil)
		})),
	}
	js.Global().Set("__oamCue", js.ValueOf(api))
	select {}
}

// wrap turns an entry point into a js.Func body: string arguments in, a JSON
// string out, and any panic recovered into {"ok":false}.
func wrap(fn func(args []string) result) func(js.Value, []js.Value) interface{} {
	return func(_ js.Value, args []js.Value) (out interface{}) {
		defer func() {
			if r := recover(); r != nil {
				out = encode(result{Error: fmt.Sprintf("the CUE evaluator panicked: %v", r)})
			}
		}()
		strs := make([]string, len(args))
		for i, a := range args {
			if a.Type() == js.TypeString {
				strs[i] = a.String()
			}
		}
		return encode(fn(strs))
	}
}

func encode(r result) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return `{"ok":false,"error":` + quote("cannot encode the result: "+err.Error()) + `}`
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func fail(err error) result {
	list := toErrors(err)
	msgs := make([]string, len(list))
	for i, e := range list {
		if e.Path != "" {
			msgs[i] = e.Path + ": " + e.Message
		} else {
			msgs[i] = e.Message
		}
	}
	return result{Error: strings.Join(msgs, "\n"), Errors: list}
}

func failf(format string, args ...interface{}) result {
	return result{Error: fmt.Sprintf(format, args...)}
}

func ok(v interface{}) result { return result{OK: true, Value: v} }

// version() → {cue, go}: the module versions this build embeds.
func version([]string) result {
	info, _ := debug.ReadBuildInfo()
	v := map[string]string{}
	if info != nil {
		v["go"] = info.GoVersion
		for _, d := range info.Deps {
			if d.Path == "cuelang.org/go" {
				v["cue"] = d.Version
			}
		}
	}
	return ok(v)
}

// compiled is compile's reply: the template's handle, and the parts of
// `context` it reads (contextReads), null when it uses all of it.
type compiled struct {
	Handle string `json:"handle"`
	// Each path a list of keys, null standing for every key of an object (anyKey),
	// a last false for "only whether it exists" (existsKey).
	Reads [][]interface{} `json:"reads"`
}

func compiledOf(handle string, t *template) compiled {
	c := compiled{Handle: handle}
	if !t.readsAll {
		c.Reads = [][]interface{}{}
		for _, path := range t.reads {
			steps := make([]interface{}, len(path))
			for i, key := range path {
				switch key {
				case anyKey: // null
				case existsKey:
					steps[i] = false
				default:
					steps[i] = key
				}
			}
			c.Reads = append(c.Reads, steps)
		}
	}
	return c
}

// compile(source) → {handle, reads}. The handle is the source's SHA-256;
// compiling the same source again returns the kept template. `context` is
// declared open (`context: _`) because KubeVela templates read it without
// declaring it. `reads` lists the parts of `context` the template reads: the
// caller fills in only those (wasm-runtime.mjs prunes the JSON before it
// crosses into Go, so what no one reads is never decoded or evaluated).
func compile(args []string) result {
	if len(args) < 1 {
		return failf("compile: want (source)")
	}
	src := args[0]
	sum := sha256.Sum256([]byte(src))
	handle := hex.EncodeToString(sum[:])
	if t, found := templates[handle]; found {
		return ok(compiledOf(handle, t))
	}
	file, err := parser.ParseFile(templateFile, src+"\ncontext: _\n", parser.ParseComments)
	if err != nil {
		return fail(err)
	}
	reads, readsAll := contextReads(file)
	each := rewriteEachLists(file)
	v := cueCtx.BuildFile(file)
	// Errors only: what is incomplete until `parameter` and `context` arrive
	// (`context["outputs"]` of an open `context`) is for render to judge.
	if err := v.Validate(); err != nil {
		return fail(err)
	}
	t := &template{source: src, value: v, each: each, reads: reads, readsAll: readsAll}
	templates[handle] = t
	return ok(compiledOf(handle, t))
}

// release(handle): forgets a template (its memory stays with the context).
func release(args []string) result {
	if len(args) > 0 {
		delete(templates, args[0])
	}
	return ok(true)
}

func lookup(args []string, want int, name string) (*template, result, bool) {
	if len(args) < want {
		return nil, failf("%s: want %d arguments", name, want), false
	}
	t, found := templates[args[0]]
	if !found {
		return nil, failf("%s: unknown template handle %q (compile it first)", name, args[0]), false
	}
	return t, result{}, true
}

// decodeJSON parses JSON text, numbers kept as written (json.Number).
func decodeJSON(text string) (interface{}, error) {
	if text == "" {
		text = "{}"
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var data interface{}
	if err := dec.Decode(&data); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	return data, nil
}

func toExpr(x interface{}) (ast.Expr, error) {
	switch x := x.(type) {
	case nil:
		return ast.NewNull(), nil
	case bool:
		return ast.NewBool(x), nil
	case string:
		return ast.NewString(x), nil
	case json.Number:
		s := x.String()
		kind := token.INT
		if strings.ContainsAny(s, ".eE") {
			kind = token.FLOAT
		}
		return &ast.BasicLit{Kind: kind, Value: s}, nil
	case []interface{}:
		elts := make([]ast.Expr, len(x))
		for i, e := range x {
			v, err := toExpr(e)
			if err != nil {
				return nil, err
			}
			elts[i] = v
		}
		return ast.NewList(elts...), nil
	case map[string]interface{}:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fields := make([]interface{}, 0, len(x))
		for _, k := range keys {
			v, err := toExpr(x[k])
			if err != nil {
				return nil, err
			}
			fields = append(fields, &ast.Field{Label: ast.NewString(k), Value: v})
		}
		return ast.NewStruct(fields...), nil
	}
	return nil, fmt.Errorf("unsupported JSON value %T", x)
}

// fill returns the template unified with `parameter` and `context` (from JSON)
// in one step: two FillPath calls evaluate the whole template twice, and this
// halved the cost of rendering webservice (hpa: a third). The caller passes
// only the parts of `context` the template reads (compile's `reads`). The JSON is built
// as an AST and compiled: cue.Context.Encode would skip that step, but its
// values lose their fields when a template embeds or re-unifies them
// (`[for c in context.outputs {c}]` gives `[{}]` on v0.14.1).
func fill(t *template, parameter, context string) (cue.Value, error) {
	v := t.value
	var fields []interface{}
	for _, in := range []struct{ name, json string }{{"parameter", parameter}, {"context", context}} {
		if in.json == "" {
			continue
		}
		data, err := decodeJSON(in.json)
		if err != nil {
			return v, fmt.Errorf("%s: %v", in.name, err)
		}
		x, err := toExpr(data)
		if err != nil {
			return v, fmt.Errorf("%s: %v", in.name, err)
		}
		fields = append(fields, &ast.Field{Label: ast.NewIdent(in.name), Value: x})
	}
	if len(fields) == 0 {
		return v, nil
	}
	filled := cueCtx.BuildExpr(ast.NewStruct(fields...))
	if err := filled.Err(); err != nil {
		return v, err
	}
	return v.Unify(filled), nil
}

// The top-level fields every render reads, parsed once.
var (
	errsPath    = cue.ParsePath("errs")
	outputPath  = cue.ParsePath("output")
	outputsPath = cue.ParsePath("outputs")
	patchPath   = cue.ParsePath("patch")
)

// export returns a field's concrete JSON, or nil when the template has none.
func export(v cue.Value, path cue.Path) (json.RawMessage, error) {
	f := v.LookupPath(path)
	if !f.Exists() {
		return nil, nil
	}
	raw, err := f.MarshalJSON()
	if err != nil {
		// Validate names every failing field with its path; MarshalJSON only the first.
		if verr := f.Validate(cue.Concrete(true)); verr != nil {
			return nil, verr
		}
		return nil, err
	}
	return raw, nil
}

// render(handle, parameterJSON, contextJSON) → {output?, outputs, patch?, errs?}
// as KubeVela reads them: `output` and `patch` whole, `outputs` one field at a
// time, `errs` (a template's own verdict) as it is.
func render(args []string) result {
	t, bad, found := lookup(args, 3, "render")
	if !found {
		return bad
	}
	v, err := fill(t, args[1], args[2])
	if err != nil {
		return failf("%v", err)
	}
	if err := v.Err(); err != nil {
		return fail(err)
	}
	out := map[string]interface{}{}
	if raw, err := export(v, errsPath); err != nil {
		return fail(err)
	} else if raw != nil {
		out["errs"] = raw
	}
	if raw, err := export(v, outputPath); err != nil {
		return fail(err)
	} else if raw != nil {
		out["output"] = raw
	}
	outputs := []interface{}{}
	if o := v.LookupPath(outputsPath); o.Exists() {
		iter, err := o.Fields()
		if err != nil {
			return fail(err)
		}
		for iter.Next() {
			f := iter.Value()
			raw, err := f.MarshalJSON()
			if err != nil {
				if verr := f.Validate(cue.Concrete(true)); verr != nil {
					return fail(verr)
				}
				return fail(err)
			}
			outputs = append(outputs, []interface{}{iter.Selector().Unquoted(), json.RawMessage(raw)})
		}
	}
	// [[name, object], ...]: the template's own order, which a JSON object would not keep.
	out["outputs"] = outputs
	if raw, err := export(v, patchPath); err != nil {
		return fail(err)
	} else if raw != nil {
		out["patch"] = raw
		marks := []patchMark{}
		p := v.LookupPath(patchPath)
		addPatchMarks(&marks, "", p.Doc())
		walkPatch(p, "", &marks, 0)
		out["patchMarks"] = marks
		out["each"] = t.each
	}
	return ok(out)
}

// evaluate(handle, parameterJSON, contextJSON, fieldsJSON) → {field: value}
// for each named top-level field that exists (health policies' `isHealth`,
// custom status' `message`, ...).
func evaluate(args []string) result {
	t, bad, found := lookup(args, 4, "evaluate")
	if !found {
		return bad
	}
	var fields []string
	if err := json.Unmarshal([]byte(args[3]), &fields); err != nil {
		return failf("evaluate: fields: %v", err)
	}
	v, err := fill(t, args[1], args[2])
	if err != nil {
		return failf("%v", err)
	}
	out := map[string]json.RawMessage{}
	for _, name := range fields {
		raw, err := export(v, cue.ParsePath(name))
		if err != nil {
			return fail(err)
		}
		if raw != nil {
			out[name] = raw
		}
	}
	return ok(out)
}

// vet(handle, propertiesJSON) → {valid, errors: [{path, message}], parameter?, declared?}:
// the properties unified with the template's `parameter`, every error with
// its field path; `parameter` is the result (defaults applied) when valid, and
// `declared` whether every field given is one `parameter` names (declared).
func vet(args []string) result {
	t, bad, found := lookup(args, 2, "vet")
	if !found {
		return bad
	}
	data, err := decodeJSON(args[1])
	if err != nil {
		return failf("properties: %v", err)
	}
	expr, err := toExpr(data)
	if err != nil {
		return failf("properties: %v", err)
	}
	props := cueCtx.BuildExpr(expr)
	if err := props.Err(); err != nil {
		return failf("properties: %v", err)
	}
	schema := t.value.LookupPath(cue.ParsePath("parameter"))
	if !schema.Exists() {
		schema = cueCtx.CompileString("{...}")
	}
	u := schema.Unify(props)
	if err := u.Validate(cue.Concrete(true)); err != nil {
		errs := toErrors(err)
		return ok(map[string]interface{}{"valid": false, "errors": errs})
	}
	raw, err := u.MarshalJSON()
	if err != nil {
		return ok(map[string]interface{}{"valid": false, "errors": toErrors(err)})
	}
	return ok(map[string]interface{}{
		"valid": true, "errors": []cueError{}, "parameter": json.RawMessage(raw),
		"declared": declared(schema, data, 0),
	})
}

// openapiSchema: openapi(handle) → the OpenAPI v3 document of `parameter`, by CUE's own
// generator, which refuses some constraints (`*1 | int & >=0`: "unsupported
// op for number &")
// (components.schemas.parameter, references expanded, descriptions from the
// doc comments).
func openapiSchema(args []string) result {
	t, bad, found := lookup(args, 1, "schema")
	if !found {
		return bad
	}
	param := t.value.LookupPath(cue.ParsePath("parameter"))
	if !param.Exists() {
		return ok(map[string]interface{}{"openapi": "3.0.0", "components": map[string]interface{}{"schemas": map[string]interface{}{}}})
	}
	// CUE's generator exports the definitions of a value with no regular
	// fields: `#parameter` filled with the template's `parameter`.
	v := schemaRoot().FillPath(cue.MakePath(cue.Def("#parameter")), param)
	if err := v.Err(); err != nil {
		return fail(err)
	}
	doc, err := openapi.Gen(v, &openapi.Config{
		ExpandReferences: true,
		NameFunc: func(_ cue.Value, path cue.Path) string {
			return strings.TrimPrefix(path.String(), "#")
		},
		Info: map[string]string{"title": "parameter", "version": "1.0.0"},
	})
	if err != nil {
		return fail(err)
	}
	return ok(json.RawMessage(doc))
}

var root cue.Value

func schemaRoot() cue.Value {
	if !root.Exists() {
		root = cueCtx.CompileString("#parameter: _")
	}
	return root
}

var marker = regexp.MustCompile(`^\+\s*(patchKey|patchStrategy|usage|short|ignore)\s*=\s*(.*?)\s*$`)

type annotation struct {
	Path  []string          `json:"path"`
	Line  int               `json:"line"`
	Marks map[string]string `json:"marks"`
}

// comments(source) → [{path, line, marks}]: the `// +patchKey=`,
// `// +patchStrategy=`, `// +usage=` (and `+short=`, `+ignore`) markers of
// every field, read from CUE's own syntax tree. Paths are field names with
// "[]" for the items of a list; `if`/`for` bodies add nothing to the path.
// A marker above a chained declaration (`a: b: c: 1`) belongs to its last field.
func comments(args []string) result {
	if len(args) < 1 {
		return failf("comments: want (source)")
	}
	file, err := parser.ParseFile(templateFile, args[0], parser.ParseComments)
	if err != nil {
		return fail(err)
	}
	found := []annotation{}
	var walkDecls func(decls []ast.Decl, path []string)
	var walkExpr func(x ast.Expr, path []string)
	var walkField func(f *ast.Field, path []string, inherited []*ast.CommentGroup)
	walkField = func(f *ast.Field, path []string, inherited []*ast.CommentGroup) {
		name, _, err := ast.LabelName(f.Label)
		if err != nil || name == "" {
			// A pattern constraint (`[string]: T`): its label is its pattern.
			name = "[_]"
			if l, isList := f.Label.(*ast.ListLit); isList && len(l.Elts) == 1 {
				if b, err := format.Node(l.Elts[0]); err == nil {
					name = "[" + string(b) + "]"
				}
			}
		}
		here := append(append([]string{}, path...), name)
		groups := append(append([]*ast.CommentGroup{}, inherited...), ast.Comments(f)...)
		if s, isStruct := f.Value.(*ast.StructLit); isStruct && !s.Lbrace.IsValid() && len(s.Elts) == 1 {
			if inner, isField := s.Elts[0].(*ast.Field); isField {
				walkField(inner, here, groups)
				return
			}
		}
		marks := map[string]string{}
		for _, g := range groups {
			for _, c := range g.List {
				text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
				if m := marker.FindStringSubmatch(text); m != nil {
					marks[m[1]] = m[2]
				} else if text == "+ignore" {
					marks["ignore"] = ""
				}
			}
		}
		if len(marks) > 0 {
			found = append(found, annotation{Path: here, Line: f.Pos().Line(), Marks: marks})
		}
		walkExpr(f.Value, here)
	}
	walkExpr = func(x ast.Expr, path []string) {
		switch x := x.(type) {
		case *ast.StructLit:
			walkDecls(x.Elts, path)
		case *ast.ListLit:
			for _, e := range x.Elts {
				if el, isEllipsis := e.(*ast.Ellipsis); isEllipsis {
					walkExpr(el.Type, append(append([]string{}, path...), "[]"))
					continue
				}
				walkExpr(e, append(append([]string{}, path...), "[]"))
			}
		case *ast.Comprehension:
			walkExpr(x.Value, path)
		case *ast.BinaryExpr:
			walkExpr(x.X, path)
			walkExpr(x.Y, path)
		case *ast.ParenExpr:
			walkExpr(x.X, path)
		case *ast.UnaryExpr:
			walkExpr(x.X, path)
		}
	}
	walkDecls = func(decls []ast.Decl, path []string) {
		for _, d := range decls {
			switch d := d.(type) {
			case *ast.Field:
				walkField(d, path, nil)
			case *ast.Comprehension:
				walkExpr(d.Value, path)
			case *ast.EmbedDecl:
				walkExpr(d.Expr, path)
			case *ast.LetClause:
				walkExpr(d.Expr, append(append([]string{}, path...), "let "+d.Ident.Name))
			}
		}
	}
	walkDecls(file.Decls, nil)
	return ok(found)
}

// toErrors lists every CUE error with its path, message and template line.
func toErrors(err error) []cueError {
	if err == nil {
		return nil
	}
	list := errors.Errors(err)
	if len(list) == 0 {
		return []cueError{{Message: err.Error()}}
	}
	out := make([]cueError, 0, len(list))
	seen := map[string]bool{}
	for _, e := range list {
		format, args := e.Msg()
		ce := cueError{Path: strings.Join(e.Path(), "."), Segments: e.Path(), Message: fmt.Sprintf(format, args...)}
		for _, p := range append([]token.Pos{e.Position()}, e.InputPositions()...) {
			if p.IsValid() && p.Filename() == templateFile {
				ce.Line = p.Line()
				break
			}
		}
		key := ce.Path + "\x00" + ce.Message
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, ce)
	}
	return out
}
