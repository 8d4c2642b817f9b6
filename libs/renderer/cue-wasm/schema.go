package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
)

// jsonSchema(handle) → a JSON Schema (draft 2020-12 subset) of `parameter`,
// read from CUE's evaluated value rather than through the OpenAPI generator,
// so it exists for every template that compiles. It documents; it never
// rejects what CUE accepts: a disjunction becomes `anyOf` of its disjuncts
// (minus those another disjunct subsumes), never `not`; closedness becomes
// `additionalProperties: false` only where CUE itself allows no other field.
// Descriptions come from `// +usage=` (else the doc comment), defaults from
// CUE's defaults.
func jsonSchema(args []string) result {
	t, bad, found := lookup(args, 1, "schema")
	if !found {
		return bad
	}
	param := t.value.LookupPath(cue.ParsePath("parameter"))
	if !param.Exists() {
		return ok(map[string]interface{}{"type": "object"})
	}
	return ok(schemaOf(param, 0))
}

const maxSchemaDepth = 24

func schemaOf(v cue.Value, depth int) map[string]interface{} {
	s := map[string]interface{}{}
	if depth > maxSchemaDepth {
		return s
	}
	if d := description(v); d != "" {
		s["description"] = d
	}
	op, disjuncts := v.Expr()
	if d, hasDefault := v.Default(); hasDefault && d.IsConcrete() && d.Validate(cue.Concrete(true)) == nil {
		var x interface{}
		if raw, err := d.MarshalJSON(); err == nil && json.Unmarshal(raw, &x) == nil && !impliedEmptyList(v, x, op) {
			s["default"] = x
		}
	}
	if op == cue.NoOp && len(disjuncts) == 1 && hasDefault(v) && withoutDefault(v, disjuncts[0]) {
		// `*1 | int & >=0`: Expr gives the value without its default.
		return merge(s, schemaOf(disjuncts[0], depth+1))
	}
	if op == cue.OrOp && len(disjuncts) > 1 {
		kept := keepUnsubsumed(disjuncts)
		if len(kept) == 1 {
			return merge(s, schemaOf(kept[0], depth+1))
		}
		if enum, isEnum := enumOf(kept); isEnum {
			s["enum"] = enum
			return s
		}
		anyOf := make([]interface{}, len(kept))
		for i, d := range kept {
			anyOf[i] = schemaOf(d, depth+1)
		}
		s["anyOf"] = anyOf
		return s
	}
	if v.IsConcrete() {
		switch v.Kind() {
		case cue.StructKind, cue.ListKind:
		default:
			var x interface{}
			if raw, err := v.MarshalJSON(); err == nil && json.Unmarshal(raw, &x) == nil {
				s["const"] = x
				return s
			}
		}
	}
	switch k := v.IncompleteKind(); k {
	case cue.StructKind:
		s["type"] = "object"
		props := map[string]interface{}{}
		var required []string
		if iter, err := v.Fields(cue.Optional(true)); err == nil {
			for iter.Next() {
				sel := iter.Selector()
				name := sel.Unquoted()
				f := iter.Value()
				props[name] = schemaOf(f, depth+1)
				if sel.ConstraintType() == cue.RequiredConstraint ||
					(!iter.IsOptional() && !hasDefault(f) && !complete(f)) {
					required = append(required, name)
				}
			}
		}
		if len(props) > 0 {
			s["properties"] = props
		}
		if len(required) > 0 {
			s["required"] = required
		}
		if pattern := v.LookupPath(cue.MakePath(cue.AnyString)); pattern.Exists() {
			s["additionalProperties"] = schemaOf(pattern, depth+1)
		} else if !v.Allows(cue.AnyString) {
			s["additionalProperties"] = false
		}
	case cue.ListKind:
		s["type"] = "array"
		if items := v.LookupPath(cue.MakePath(cue.AnyIndex)); items.Exists() {
			s["items"] = schemaOf(items, depth+1)
		}
	case cue.StringKind, cue.BytesKind:
		s["type"] = "string"
		constraints(v, s)
	case cue.IntKind:
		s["type"] = "integer"
		constraints(v, s)
	case cue.FloatKind, cue.NumberKind:
		s["type"] = "number"
		constraints(v, s)
	case cue.BoolKind:
		s["type"] = "boolean"
	case cue.NullKind:
		s["type"] = "null"
	default:
		var types []interface{}
		for _, kt := range []struct {
			kind cue.Kind
			name string
		}{{cue.NullKind, "null"}, {cue.BoolKind, "boolean"}, {cue.IntKind, "integer"}, {cue.FloatKind, "number"},
			{cue.StringKind, "string"}, {cue.StructKind, "object"}, {cue.ListKind, "array"}} {
			if k&kt.kind != 0 {
				types = append(types, kt.name)
			}
		}
		if k&cue.FloatKind != 0 {
			types = removeString(types, "integer")
		}
		if len(types) > 0 && len(types) < 7 {
			s["type"] = types
		}
	}
	return s
}

// withoutDefault: d, the one operand Expr gives for v, is v without its
// default rather than v itself. Printing both compares them, and printing is
// most of this file's cost, so the common cases are answered first.
func withoutDefault(v, d cue.Value) bool {
	if !hasDefault(d) {
		return true
	}
	if src := v.Source(); src != nil && src == d.Source() {
		return false
	}
	return fmt.Sprint(d) != fmt.Sprint(v)
}

// keepUnsubsumed drops each disjunct another one subsumes (`1 | int` → int).
func keepUnsubsumed(ds []cue.Value) []cue.Value {
	var kept []cue.Value
	for i, d := range ds {
		subsumed := false
		for j, o := range ds {
			if i == j {
				continue
			}
			if o.Subsume(d) != nil {
				continue
			}
			// Subsuming each other (`{}` and `{[string]: string}` do): keep the
			// one that says more, or the first.
			if d.Subsume(o) != nil || says(d) < says(o) || (says(d) == says(o) && j < i) {
				subsumed = true
				break
			}
		}
		if !subsumed {
			kept = append(kept, d)
		}
	}
	if len(kept) == 0 {
		return ds
	}
	return kept
}

// says ranks how much a value constrains beyond its concrete part: element
// and pattern constraints, then its printed length.
func says(v cue.Value) int {
	n := len(fmt.Sprint(v))
	if v.LookupPath(cue.MakePath(cue.AnyString)).Exists() {
		n += 1 << 20
	}
	if v.LookupPath(cue.MakePath(cue.AnyIndex)).Exists() {
		n += 1 << 20
	}
	return n
}

func enumOf(ds []cue.Value) ([]interface{}, bool) {
	enum := make([]interface{}, 0, len(ds))
	for _, d := range ds {
		if !d.IsConcrete() || d.Kind() == cue.StructKind || d.Kind() == cue.ListKind {
			return nil, false
		}
		var x interface{}
		raw, err := d.MarshalJSON()
		if err != nil || json.Unmarshal(raw, &x) != nil {
			return nil, false
		}
		enum = append(enum, x)
	}
	return enum, true
}

// constraints adds the bounds and patterns of a scalar's conjuncts.
func constraints(v cue.Value, s map[string]interface{}) {
	op, args := v.Expr()
	switch op {
	case cue.AndOp:
		for _, a := range args {
			constraints(a, s)
		}
		return
	}
	if len(args) != 1 {
		return
	}
	var x interface{}
	if raw, err := args[0].MarshalJSON(); err != nil || json.Unmarshal(raw, &x) != nil {
		return
	}
	switch op {
	case cue.GreaterThanEqualOp:
		s["minimum"] = x
	case cue.GreaterThanOp:
		s["exclusiveMinimum"] = x
	case cue.LessThanEqualOp:
		s["maximum"] = x
	case cue.LessThanOp:
		s["exclusiveMaximum"] = x
	case cue.RegexMatchOp:
		s["pattern"] = x
	}
}

// complete: CUE's vet accepts the field left out. A struct or list counts as
// concrete by its kind alone, so it is complete only when everything it
// requires inside is (`cpu: {type: string}` is required; `{a?: int}` is not).
func complete(v cue.Value) bool {
	switch v.IncompleteKind() {
	case cue.StructKind, cue.ListKind:
		return v.Validate(cue.Concrete(true)) == nil
	}
	return v.IsConcrete()
}

func hasDefault(v cue.Value) bool {
	_, has := v.Default()
	return has
}

// description is a field's `+usage=` text, else its doc comment without markers.
func description(v cue.Value) string {
	var plain []string
	for _, g := range v.Doc() {
		for _, line := range strings.Split(g.Text(), "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			// Only a line starting with "+" can be a marker: the regexp is costly on every line.
			if line[0] != '+' {
				plain = append(plain, line)
				continue
			}
			if m := marker.FindStringSubmatch(line); m != nil {
				if m[1] == "usage" {
					return m[2]
				}
			}
		}
	}
	return strings.Join(plain, " ")
}

func merge(into, from map[string]interface{}) map[string]interface{} {
	for k, v := range from {
		if _, set := into[k]; !set {
			into[k] = v
		}
	}
	return into
}

func removeString(list []interface{}, s string) []interface{} {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// impliedEmptyList: `[...T]` evaluates to `[]` by itself, which is not a default
// anyone wrote (`*[] | [...T]` is one).
func impliedEmptyList(v cue.Value, x interface{}, op cue.Op) bool {
	list, isList := x.([]interface{})
	if !isList || len(list) > 0 || op == cue.OrOp {
		return false
	}
	_, written := v.Source().(*ast.BinaryExpr)
	return !written
}
