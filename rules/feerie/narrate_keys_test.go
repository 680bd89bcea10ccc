package feerie

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	feeriev1 "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	"github.com/fray-rpg/fray/rules/narrate"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// TestEveryMessageHasItsFrench reads the narration's source: every message it formats (t.f)
// has its French, every term it names (t.tf, t.term) is in the catalogue, and every French
// given is used.
func TestEveryMessageHasItsFrench(t *testing.T) {
	files, err := filepath.Glob("narrate*.go")
	require.NoError(t, err)
	used := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			lit := func(i int) (string, bool) {
				if i >= len(call.Args) {
					return "", false
				}
				b, ok := call.Args[i].(*ast.BasicLit)
				if !ok || b.Kind != token.STRING {
					return "", false
				}
				s, err := strconv.Unquote(b.Value)
				require.NoError(t, err)
				return s, true
			}
			switch sel.Sel.Name {
			case "f":
				if key, ok := lit(0); ok {
					require.True(t, frKeys[key], "%s: no French for %q", fset.Position(call.Pos()), key)
					used[key] = true
				}
			case "add": // StateText's parts
				if key, ok := lit(1); ok {
					require.True(t, termKeys["feerie state: "+key], "%s: no term %q", fset.Position(call.Pos()), key)
				}
			case "tf", "term":
				kind, ok1 := lit(0)
				en, ok2 := lit(1)
				if ok1 && ok2 {
					key := "feerie " + kind + ": " + en
					require.True(t, termKeys[key], "%s: no term %q", fset.Position(call.Pos()), key)
				}
			}
			return true
		})
	}
	for _, p := range append(append([]pattern{}, reasonPatterns...), notePatterns...) {
		require.True(t, frKeys[p.key], "no French for the pattern %q", p.key)
		used[p.key] = true
	}
	for key := range frKeys {
		require.True(t, used[key], "French given for %q, which the narration never says", key)
	}
}

// TestEveryEnumIsNamedInFrench: each value of the enums the narration names has its French.
func TestEveryEnumIsNamedInFrench(t *testing.T) {
	en, fr := tell{n: narrate.New(narrate.English)}, tell{n: narrate.New(narrate.French)}
	each := func(d protoreflect.EnumDescriptor, say func(tell, protoreflect.EnumNumber) string) {
		for i := range d.Values().Len() {
			v := d.Values().Get(i)
			e, f := say(en, v.Number()), say(fr, v.Number())
			require.NotEmpty(t, e)
			require.NotContains(t, e, "feerie ")
			if v.Number() != 0 {
				require.NotEqual(t, e, f, "%s has no French", v.FullName())
			}
		}
	}
	each(feeriev1.ActivityKind(0).Descriptor(), func(t tell, n protoreflect.EnumNumber) string { return t.kind(feeriev1.ActivityKind(n)) })
	each(feeriev1.SpecialStrike(0).Descriptor(), func(t tell, n protoreflect.EnumNumber) string { return t.strike(feeriev1.SpecialStrike(n)) })
	each(feeriev1.Pace(0).Descriptor(), func(t tell, n protoreflect.EnumNumber) string { return t.pace(feeriev1.Pace(n)) })
	circ := func(c *feeriev1.Circumstances) func(tell) string {
		return func(t tell) string { return strings.Join(t.circumstances(c), ", ") }
	}
	each(feeriev1.Lighting(0).Descriptor(), func(t tell, n protoreflect.EnumNumber) string {
		return circ(&feeriev1.Circumstances{Lighting: feeriev1.Lighting(n), Undefended: n == 0})(t)
	})
	each(feeriev1.RangedDifficulty(0).Descriptor(), func(t tell, n protoreflect.EnumNumber) string {
		return circ(&feeriev1.Circumstances{RangedDifficulty: feeriev1.RangedDifficulty(n), Undefended: n == 0})(t)
	})
	each(feeriev1.Range(0).Descriptor(), func(t tell, n protoreflect.EnumNumber) string {
		return circ(&feeriev1.Circumstances{Distance: feeriev1.Range(n), Undefended: n == 0})(t)
	})
	each(feeriev1.Terrain(0).Descriptor(), func(t tell, n protoreflect.EnumNumber) string {
		return circ(&feeriev1.Circumstances{Terrain: feeriev1.Terrain(n), Undefended: n == 0})(t)
	})
	require.Equal(t, "unspecified", en.pace(0))
	require.Equal(t, "no activity given", en.kind(0))
}

// TestFrenchElision: « de » before a name or an Aspect, as French writes it.
func TestFrenchElision(t *testing.T) {
	fr := tell{n: narrate.New(narrate.French)}
	for name, want := range map[string]string{
		"Serpent":           "de Serpent",
		"Aude":              "d'Aude",
		"Habileté":          "d'Habileté",
		"habileté":          "d'habileté",
		"Charme":            "de Charme",
		"Le Croque-Mitaine": "du Croque-Mitaine",
	} {
		require.Equal(t, want, fr.de(name), name)
	}
}
