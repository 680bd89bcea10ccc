package dev

import (
	"io/fs"

	"github.com/fray-rpg/fray/web"
)

// pageAssets are the page's built files served at / of --web.
func pageAssets() fs.FS { return web.Assets }
