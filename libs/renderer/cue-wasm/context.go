package main

import (
	"sort"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"
)

// contextReads lists the parts of `context` a template reads: each selector
// chain on it (`context.output.kind`, `context["outputs"]`) up to its first
// computed index, shortest first, none a prefix of another. It reports all
// (nil, true) when the template uses `context` in any other way: bare, through
// an alias or a comprehension, shadowed, or declared by the template itself.
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
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		if all {
			return false
		}
		switch x := n.(type) {
		case *ast.Field:
			if name, _, _ := ast.LabelName(x.Label); name == "context" && isTop(file, x) {
				// Ours, `context: _`: nothing to read in it.
				if id, isIdent := x.Value.(*ast.Ident); !isIdent || id.Name != "_" {
					all = true
				}
				return false
			}
		case *ast.SelectorExpr, *ast.IndexExpr:
			base, path, computed := chain(x.(ast.Expr))
			if base == nil || base.Name != "context" {
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
	return minimal(paths), false
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
	sort.Slice(paths, func(i, j int) bool { return len(paths[i]) < len(paths[j]) })
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
