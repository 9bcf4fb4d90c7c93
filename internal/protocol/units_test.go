package protocol_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// legacyUnits are the wire fields older than the package's convention
// for durations (the package doc, "Units"), by type and JSON name, with
// their unit.
var legacyUnits = map[string]string{
	"CreateTable.clock": "seconds",
	"CreateTable.grace": "seconds",
	"CreateTable.think": "milliseconds",
	"TableInfo.clock":   "seconds",
	"TableInfo.grace":   "seconds",
	"TableInfo.think":   "milliseconds",
}

// durationWords mark a JSON name that holds a duration.
var durationWords = []string{"clock", "grace", "think", "timeout", "delay", "wait", "window", "ttl", "interval", "duration", "elapsed", "remaining", "left"}

// TestUnits holds the wire types to the package's units: no field is a
// time.Duration; a field named "..._ms" is a whole number; a number
// named for a duration is named "..._ms" unless it is one of the older
// fields (legacyUnits), and each of those is documented with its unit.
func TestUnits(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := spec.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if field.Tag == nil {
					continue
				}
				tag, _ := strconv.Unquote(field.Tag.Value)
				jsonName, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
				if jsonName == "" || jsonName == "-" {
					continue
				}
				key := spec.Name.Name + "." + jsonName
				typ := types(field.Type)
				at := fset.Position(field.Pos())
				if typ == "time.Duration" || typ == "*time.Duration" {
					t.Errorf("%s: %s is a time.Duration (sent in nanoseconds): make it an int64 of milliseconds named %s_ms", at, key, jsonName)
				}
				number := strings.Contains(typ, "int") || strings.Contains(typ, "float")
				switch unit, legacy := legacyUnits[key]; {
				case strings.HasSuffix(jsonName, "_ms"):
					if typ != "int64" && typ != "int" && typ != "*int64" {
						t.Errorf("%s: %s is a %s: a field in milliseconds is a whole number", at, key, typ)
					}
				case legacy:
					seen[key] = true
					doc := field.Doc.Text() + field.Comment.Text()
					if !strings.Contains(doc, unit) {
						t.Errorf("%s: %s, older than the convention, does not say its unit (%s) in its comment", at, key, unit)
					}
				case number && namesDuration(jsonName):
					t.Errorf("%s: %s looks like a duration: name it %s_ms (milliseconds), as the package doc says", at, key, jsonName)
				}
			}
			return true
		})
	}
	for key := range legacyUnits {
		if !seen[key] {
			t.Errorf("%s (legacyUnits) is no field of the wire types", key)
		}
	}
}

// namesDuration reports whether a JSON name holds a word of a duration.
func namesDuration(name string) bool {
	for _, w := range durationWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// types spells a field's type as its source does.
func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + types(e.X)
	case *ast.SelectorExpr:
		return types(e.X) + "." + e.Sel.Name
	case *ast.ArrayType:
		return "[]" + types(e.Elt)
	case *ast.MapType:
		return "map[" + types(e.Key) + "]" + types(e.Value)
	}
	return "?"
}
