package main

import (
	"sort"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"
)

// anyKey is the step of a read path that stands for every key of an object:
// `for o in context.outputs { o.kind }` reads outputs.<anyKey>.kind (JSON null).
const anyKey = "\x00*"

// existsKey ends a read path that is only tested for existence
// (`if context.output.status != _|_`): any value there will do, so the loader
// keeps an object there as `{}` (JSON false) plus what other paths read of it.
// Health policies test the workload's status this way; keeping it whole would
// carry its timestamps into every request.
const existsKey = "\x00?"

// contextReads lists the parts of `context` a template reads: each selector
// chain on it (`context.output.kind`, `context["outputs"]`) up to its first
// computed index, shortest first, none a prefix of another; a chain compared
// with `_|_` reads only whether it exists (existsKey). A comprehension
// over a chain (`for k, o in context.outputs`) reads, of each entry, what its
// value variable is used for: the chains on it (`o.kind`: outputs.*.kind), or
// all of the entry where `o` is used otherwise (`{o}`). It reports all
// (nil, true) when the template uses `context` in any other way: bare, through
// an alias, shadowed, or declared by the template itself.
//
// Rendering fills `context` with only these parts (compile returns them; the
// loader, wasm-runtime.mjs, prunes the context JSON before it crosses into Go).
// Everything a template can observe is under a path it reads, so the result is
// the same, and CUE no longer decodes or evaluates what no one reads: a trait's
// `context.output` is the whole workload, and unifying it was half the cost of
// rendering hpa.
func contextReads(file *ast.File) (paths [][]string, all bool) {
	declared := 0
	for _, d := range file.Decls {
		if f, isField := d.(*ast.Field); isField {
			if name, _, _ := ast.LabelName(f.Label); name == "context" {
				declared++
			}
		}
	}
	if declared != 1 {
		return nil, true // the template declares `context` beside ours
	}
	// The value variables of comprehensions over chains on `context`, and the
	// path each one's entries are at (ending in anyKey).
	entries := map[*ast.Ident][]string{}
	unread := map[*ast.Ident][]string{}
	var vars []*ast.Ident // in the order found
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		if all {
			return false
		}
		switch x := n.(type) {
		case *ast.ForClause:
			base, path, computed := chain(x.Source)
			if base == nil || base.Name != "context" || base.Scope != ast.Node(file) || len(computed) > 0 {
				return true
			}
			entries[x.Value] = append(append([]string{}, path...), anyKey)
			// The entries themselves, whole, unless the value variable is read (below):
			// a comprehension that never reads it still iterates over every key.
			unread[x.Value] = path
			vars = append(vars, x.Value)
			return false // the key and value are declarations; the source is read through them
		case *ast.Field:
			if name, _, _ := ast.LabelName(x.Label); name == "context" && isTop(file, x) {
				// Ours, `context: _`: nothing to read in it.
				if id, isIdent := x.Value.(*ast.Ident); !isIdent || id.Name != "_" {
					all = true
				}
				return false
			}
		case *ast.BinaryExpr:
			if x.Op != token.NEQ && x.Op != token.EQL {
				return true
			}
			operand, isTest := existenceOperand(x)
			if !isTest {
				return true
			}
			base, path, computed := chain(operand)
			if base == nil || base.Name != "context" || base.Scope != ast.Node(file) || len(computed) > 0 || len(path) == 0 {
				return true // anything else is read as usual, by the cases below
			}
			paths = append(paths, append(path, existsKey))
			return false
		case *ast.SelectorExpr, *ast.IndexExpr:
			base, path, computed := chain(x.(ast.Expr))
			if base == nil {
				return true
			}
			if at, isEntry := entries[entryOf(base)]; isEntry {
				delete(unread, entryOf(base))
				paths = append(paths, append(append([]string{}, at...), path...))
				for _, e := range computed {
					ast.Walk(e, walk, nil)
				}
				return false
			}
			if base.Name != "context" {
				return true
			}
			if base.Scope != ast.Node(file) {
				all = true // a `context` of the template's own
				return false
			}
			paths = append(paths, path)
			for _, e := range computed {
				ast.Walk(e, walk, nil)
			}
			return false
		case *ast.Ident:
			if at, isEntry := entries[entryOf(x)]; isEntry {
				delete(unread, entryOf(x))
				paths = append(paths, at) // an entry used whole
				return false
			}
			// A label or a declaration has no scope; a reference does.
			if x.Name == "context" && (x.Scope != nil || x.Node != nil) {
				all = true
			}
		}
		return true
	}
	ast.Walk(file, walk, nil)
	if all {
		return nil, true
	}
	for _, v := range vars {
		if path, isUnread := unread[v]; isUnread {
			paths = append(paths, path)
		}
	}
	return minimal(paths), false
}

// existenceOperand returns X of `X != _|_` or `X == _|_` (either side).
func existenceOperand(x *ast.BinaryExpr) (ast.Expr, bool) {
	if _, isBottom := x.Y.(*ast.BottomLit); isBottom {
		return x.X, true
	}
	if _, isBottom := x.X.(*ast.BottomLit); isBottom {
		return x.Y, true
	}
	return nil, false
}

// entryOf returns the comprehension variable a reference refers to (the
// resolver points a reference to `o` in `for k, o in ...` at the `o` declared
// there), or nil.
func entryOf(x *ast.Ident) *ast.Ident {
	if _, inFor := x.Scope.(*ast.ForClause); !inFor {
		return nil
	}
	decl, _ := x.Node.(*ast.Ident)
	return decl
}

func isTop(file *ast.File, f *ast.Field) bool {
	for _, d := range file.Decls {
		if d == ast.Decl(f) {
			return true
		}
	}
	return false
}

// chain splits `base.a["b"][i].c` into its base identifier, the path of its
// static selectors up to the first computed index (a, b), and the expressions
// that are computed (i), which may read `context` themselves.
func chain(x ast.Expr) (base *ast.Ident, path []string, computed []ast.Expr) {
	var steps []ast.Expr
	for {
		switch e := x.(type) {
		case *ast.SelectorExpr:
			steps = append(steps, e)
			x = e.X
			continue
		case *ast.IndexExpr:
			steps = append(steps, e)
			x = e.X
			continue
		case *ast.Ident:
			base = e
		default:
			// `(a).b`, a call's result, ...: not a chain on an identifier.
			return nil, nil, nil
		}
		break
	}
	static := true
	for i := len(steps) - 1; i >= 0; i-- {
		switch e := steps[i].(type) {
		case *ast.SelectorExpr:
			name, _, err := ast.LabelName(e.Sel)
			if err != nil || name == "" {
				static = false
			}
			if static {
				path = append(path, name)
			}
		case *ast.IndexExpr:
			key, isKey := stringKey(e.Index)
			if !isKey {
				static = false
				computed = append(computed, e.Index)
			}
			if static {
				path = append(path, key)
			}
		}
	}
	return base, path, computed
}

func stringKey(x ast.Expr) (string, bool) {
	lit, isLit := x.(*ast.BasicLit)
	if !isLit || lit.Kind != token.STRING {
		return "", false
	}
	s, err := literal.Unquote(lit.Value)
	return s, err == nil
}

// minimal drops duplicates and the paths another one is a prefix of; an empty
// path (all of `context`) leaves nothing to prune.
func minimal(paths [][]string) [][]string {
	sort.SliceStable(paths, func(i, j int) bool { return len(paths[i]) < len(paths[j]) })
	var kept [][]string
	seen := map[string]bool{}
	for _, p := range paths {
		covered := false
		for n := 0; n <= len(p) && !covered; n++ {
			covered = seen[strings.Join(p[:n], "\x00")+"\x00"]
		}
		if covered {
			continue
		}
		seen[strings.Join(p, "\x00")+"\x00"] = true
		kept = append(kept, p)
	}
	return kept
}
