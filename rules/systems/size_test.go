package systems_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The most lines a file of rules/, and a function of it, may have (issue 27): past them a file
// holds more than one family of commands, a function more than one rule, and "where is X
// decided?" has no short answer. Test files are not counted: a table of cases may run long.
const (
	maxFileLines = 600
	maxFuncLines = 120
)

// knownLongFiles and knownLongFuncs are the offenders of the day the check came, each to be
// split and then struck from its list (the check fails on an entry that no longer offends, so
// the lists only shrink). Nothing may be added to them. A function is named "dir/file.go Name",
// a method "dir/file.go Type.Name".
var (
	knownLongFiles []string // none left
	knownLongFuncs []string // none left
)

// No file of rules/ is over maxFileLines lines and no function over maxFuncLines, but for the
// known offenders, each of which must still offend.
func TestNoFileOrFunctionOfTheRulesIsTooLong(t *testing.T) {
	files, funcs := rulesSizes(t, "..")
	checkSizes(t, "file", files, maxFileLines, knownLongFiles)
	checkSizes(t, "function", funcs, maxFuncLines, knownLongFuncs)
	t.Logf("%d files and %d functions measured; %d files and %d functions still known to be too long",
		len(files), len(funcs), len(knownLongFiles), len(knownLongFuncs))
}

// rulesSizes measures the Go files (tests and testdata aside) under root, rules/: the lines of
// each file, and of each function from its func keyword to its closing brace.
func rulesSizes(t *testing.T, root string) (files, funcs map[string]int) {
	t.Helper()
	files, funcs = map[string]int{}, map[string]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files[rel] = fset.File(f.Pos()).LineCount()
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok {
				// a file's several init functions share a name: the longest stands for them
				key := rel + " " + funcName(fn)
				funcs[key] = max(funcs[key], fset.Position(fn.End()).Line-fset.Position(fn.Pos()).Line+1)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading the rules' sources: %v", err)
	}
	if len(files) == 0 {
		t.Fatalf("no Go file found under %s: the check measured nothing", root)
	}
	return files, funcs
}

// funcName is a function's name, a method's prefixed with its receiver's type.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if g, ok := typ.(*ast.IndexExpr); ok {
		typ = g.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// checkSizes fails on every measured thing over limit lines that is not known, and on every
// known one that is no longer over it (or no longer there).
func checkSizes(t *testing.T, what string, sizes map[string]int, limit int, known []string) {
	t.Helper()
	for _, n := range slices.Sorted(maps.Keys(sizes)) {
		if sizes[n] > limit && !slices.Contains(known, n) {
			t.Errorf("rules/%s: the %s has %d lines; at most %d (issue 27): split it into pieces named in the game's terms",
				n, what, sizes[n], limit)
		}
	}
	for _, n := range known {
		switch lines, ok := sizes[n]; {
		case !ok:
			t.Errorf("rules/%s: the known long %s is gone: strike it from the known list in rules/systems/size_test.go", n, what)
		case lines <= limit:
			t.Errorf("rules/%s: the known long %s has %d lines now, no more than %d: strike it from the known list in rules/systems/size_test.go",
				n, what, lines, limit)
		}
	}
}
