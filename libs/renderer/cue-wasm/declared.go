package main

import "cuelang.org/go/cue"

// declared reports whether every field of data (JSON, decoded) is one that the
// parameter schema names where it stands, or that a pattern of its admits:
// then the JSON Schema (jsonSchema) finds no unknown field in it either, and
// the renderer need not export that schema to look. Only plain structs and
// lists are followed (no disjunction, no default: there the JSON Schema
// unites alternatives); anywhere else the answer is no, and the renderer
// looks with the schema as before.
func declared(schema cue.Value, data interface{}, depth int) bool {
	if depth > maxSchemaDepth {
		return false
	}
	switch x := data.(type) {
	case map[string]interface{}:
		if !plain(schema, cue.StructKind) {
			return false
		}
		fields := map[string]cue.Value{}
		iter, err := schema.Fields(cue.Optional(true))
		if err != nil {
			return false
		}
		for iter.Next() {
			fields[iter.Selector().Unquoted()] = iter.Value()
		}
		pattern := schema.LookupPath(cue.MakePath(cue.AnyString))
		for k, v := range x {
			f, named := fields[k]
			if !named {
				if !pattern.Exists() {
					return false
				}
				f = pattern
			}
			if !declared(f, v, depth+1) {
				return false
			}
		}
		return true
	case []interface{}:
		if !plain(schema, cue.ListKind) {
			return false
		}
		items := schema.LookupPath(cue.MakePath(cue.AnyIndex))
		if !items.Exists() {
			return false
		}
		for _, v := range x {
			if !declared(items, v, depth+1) {
				return false
			}
		}
		return true
	}
	return true // a scalar holds no fields
}

// plain: a value of this kind only, with no alternatives and no default (but
// the `[]` that CUE implies for `[...T]`, which jsonSchema ignores too).
func plain(v cue.Value, kind cue.Kind) bool {
	if v.IncompleteKind() != kind || (kind != cue.ListKind && hasDefault(v)) {
		return false
	}
	op, _ := v.Expr()
	return op != cue.OrOp
}
