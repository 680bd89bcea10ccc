package encounter_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// maxFunctionLines bounds every function of services/ (tests apart): one a reader follows in
// one screen, whose steps have names.
const maxFunctionLines = 80

// No function of services/ (every service and platform, their commands included) is longer
// than maxFunctionLines, its signature and closing brace counted.
func TestNoFunctionOfServicesIsLong(t *testing.T) {
	root := filepath.Join("..")
	fset := token.NewFileSet()
	files := 0
	var long []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil {
				if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxFunctionLines {
					long = append(long, fset.Position(fn.Pos()).String()+" "+fn.Name.Name)
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 50, "the walk found the services' sources")
	require.Empty(t, long, "functions over %d lines: give their steps names", maxFunctionLines)
}
