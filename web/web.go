// Package web holds the built files of fray's encounter page (dist/, built from src/ by
// build.sh, committed so that `go run ./cli/cmd/fray dev` needs no Node), embedded.
package web

import (
	"embed"
	"io/fs"
)

//go:embed dist
var dist embed.FS

// Assets are the page's built files: index.html at the root and what it loads.
var Assets fs.FS = mustSub(dist, "dist")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return sub
}
