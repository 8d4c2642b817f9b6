package main

import (
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
)

// patchMark is one `// +patchKey=` or `// +patchStrategy=` marker on a field
// of an evaluated `patch`: its path ("spec.template.spec.containers[].env",
// "" for `patch` itself).
type patchMark struct {
	Path  string `json:"path"`
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

const maxPatchDepth = 64

// walkPatch collects the markers of every field of an evaluated patch. The
// markers are read from each field's doc comments as CUE evaluates them, so a
// marker inside a helper or a `let` that the patch uses counts where the patch
// uses it, and one above `a: b: c` belongs to `c` (CUE's and KubeVela's rule).
func walkPatch(v cue.Value, path string, marks *[]patchMark, depth int) {
	if depth > maxPatchDepth {
		return
	}
	switch v.Kind() {
	case cue.StructKind:
		iter, err := v.Fields()
		if err != nil {
			return
		}
		for iter.Next() {
			here := iter.Selector().Unquoted()
			if path != "" {
				here = path + "." + here
			}
			addPatchMarks(marks, here, iter.Value().Doc())
			walkPatch(iter.Value(), here, marks, depth+1)
		}
	case cue.ListKind:
		iter, err := v.List()
		if err != nil {
			return
		}
		for iter.Next() {
			walkPatch(iter.Value(), path+"[]", marks, depth+1)
		}
	}
}

func addPatchMarks(marks *[]patchMark, path string, docs []*ast.CommentGroup) {
	for _, g := range docs {
		for _, c := range g.List {
			text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
			if !strings.HasPrefix(text, "+") {
				continue // not a marker (and the regexp is costly)
			}
			if m := marker.FindStringSubmatch(text); m != nil && (m[1] == "patchKey" || m[1] == "patchStrategy") {
				*marks = append(*marks, patchMark{Path: path, Kind: m[1], Value: m[2]})
			}
		}
	}
}

// rewriteEachLists turns every list written `[...X]` (one element type, no
// items) under the top-level `patch` into `[X]` and returns their paths. CUE
// exports `[...X]` as `[]`; KubeVela unifies it with each item of the
// workload's list, which is what applyPatch does with a list marked "each".
func rewriteEachLists(file *ast.File) []string {
	found := []string{}
	var walk func(x ast.Node, path []string, inPatch bool)
	walkDecls := func(decls []ast.Decl, path []string, inPatch bool) {
		for _, d := range decls {
			switch d := d.(type) {
			case *ast.Field:
				name, _, err := ast.LabelName(d.Label)
				if err != nil {
					continue
				}
				if len(path) == 0 && !inPatch {
					if name == "patch" {
						walk(d.Value, nil, true)
					}
					continue
				}
				walk(d.Value, append(append([]string{}, path...), name), inPatch)
			case *ast.Comprehension:
				walk(d.Value, path, inPatch)
			case *ast.EmbedDecl:
				walk(d.Expr, path, inPatch)
			}
		}
	}
	walk = func(x ast.Node, path []string, inPatch bool) {
		switch x := x.(type) {
		case *ast.StructLit:
			walkDecls(x.Elts, path, inPatch)
		case *ast.Comprehension:
			walk(x.Value, path, inPatch)
		case *ast.ListLit:
			if !inPatch {
				return
			}
			if len(x.Elts) == 1 {
				if el, isEllipsis := x.Elts[0].(*ast.Ellipsis); isEllipsis && el.Type != nil {
					x.Elts[0] = el.Type
					found = append(found, joinPath(path))
					walk(el.Type, append(append([]string{}, path...), "[]"), inPatch)
					return
				}
			}
			for _, e := range x.Elts {
				walk(e, append(append([]string{}, path...), "[]"), inPatch)
			}
		case *ast.BinaryExpr:
			walk(x.X, path, inPatch)
			walk(x.Y, path, inPatch)
		case *ast.ParenExpr:
			walk(x.X, path, inPatch)
		}
	}
	walkDecls(file.Decls, nil, false)
	return found
}

func joinPath(path []string) string {
	var b strings.Builder
	for _, seg := range path {
		if seg == "[]" {
			b.WriteString("[]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}
