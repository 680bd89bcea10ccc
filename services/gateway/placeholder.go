package gateway

import (
	"io/fs"
	"testing/fstest"
)

// Placeholder is a page saying that no page is built: what a server without the page's assets
// serves at / (the API works all the same).
var Placeholder fs.FS = fstest.MapFS{
	"index.html": &fstest.MapFile{Data: []byte(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>fray</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>fray</h1><p>This server serves fray's API to browsers (Connect and gRPC-web), but no page.</p></body></html>
`), Mode: 0o444},
}
