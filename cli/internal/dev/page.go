package dev

import (
	"io/fs"

	"github.com/fray-rpg/fray/services/gateway"
)

// pageAssets are the page's built files served at / of --web.
func pageAssets() fs.FS { return gateway.Placeholder }
