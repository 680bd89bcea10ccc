package systems_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/rules/systems"
)

// skeleton is the file of a rule system's package (rules/<id>/) that declares each method of
// its System, and its New and Released (issue 27): "where is Decide?" has one answer in every
// system. A family of commands too large for decide.go goes to decide_<family>.go, called from
// Decide; the same for Evolve's named functions.
var skeleton = map[string]string{
	"ID": "system.go", "Name": "system.go", "Version": "system.go",
	"Options": "system.go", "CheckCombatant": "system.go", "Start": "system.go",
	"Decide": "decide.go", "Close": "decide.go", "FollowUp": "decide.go",
	"Evolve":        "evolve.go",
	"LegalCommands": "legal.go",
	"Describe":      "describe.go",
	"RedactEvent":   "redact.go", "RedactState": "redact.go", "Appearance": "redact.go",
	"DiceEnd": "dice.go",
	"Odds":    "odds.go", "WithOdds": "odds.go",
	"Tracker": "tracker.go", "CostUnit": "tracker.go",
	"Teller": "narrate.go",
	"New":    "version.go", "Released": "version.go",
}

// skeletonRequired are the ones every system declares itself; the others, where it has them.
var skeletonRequired = []string{
	"ID", "Name", "Version", "Options", "CheckCombatant", "Start", "Decide", "Evolve",
	"LegalCommands", "Describe", "RedactEvent", "DiceEnd", "New", "Released",
}

// Every registered rule system's package declares its System's methods in the skeleton's files.
func TestEverySystemKeepsTheSkeleton(t *testing.T) {
	ids := systems.IDs()
	if len(ids) == 0 {
		t.Fatal("the registry has no rule system")
	}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			where := systemDecls(t, filepath.Join("..", id))
			for _, name := range skeletonRequired {
				if _, ok := where[name]; !ok {
					t.Errorf("rules/%s declares no %s: the skeleton has it in %s", id, name, skeleton[name])
				}
			}
			for _, name := range slices.Sorted(maps.Keys(where)) {
				if want, ok := skeleton[name]; ok && where[name] != want {
					t.Errorf("rules/%s declares %s in %s; the skeleton has it in %s", id, name, where[name], want)
				}
			}
			placed := 0
			for name := range skeleton {
				if where[name] == skeleton[name] {
					placed++
				}
			}
			t.Logf("rules/%s: %d of the skeleton's %d declarations in place", id, placed, len(skeleton))
		})
	}
}

// systemDecls maps each method of the package's System type, and its New and Released
// functions, to the file (test files aside) that declares it.
func systemDecls(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("a registered rule system has its package in rules/<id>: %v", err)
	}
	where := map[string]string{}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if embedsRelease(d) { // engine.Release gives ID, Name and Version where System is declared
				where["ID"], where["Name"], where["Version"] = name, name, name
			}
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			switch n := funcName(fn); {
			case n == "New" || n == "Released":
				where[n] = name
			case strings.HasPrefix(n, "System."):
				where[strings.TrimPrefix(n, "System.")] = name
			}
		}
	}
	return where
}

// embedsRelease reports whether d declares the System type embedding engine.Release.
func embedsRelease(d ast.Decl) bool {
	g, ok := d.(*ast.GenDecl)
	if !ok || g.Tok != token.TYPE {
		return false
	}
	for _, s := range g.Specs {
		ts := s.(*ast.TypeSpec)
		st, ok := ts.Type.(*ast.StructType)
		if ts.Name.Name != "System" || !ok {
			continue
		}
		for _, f := range st.Fields.List {
			if sel, ok := f.Type.(*ast.SelectorExpr); ok && len(f.Names) == 0 && sel.Sel.Name == "Release" {
				return true
			}
		}
	}
	return false
}
