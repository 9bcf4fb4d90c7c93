// Package web holds Parlour's browser page: the TypeScript sources in
// src/, built by esbuild (npm run build) into dist/, which is committed and
// embedded here so that the Go binary serves the page without Node.
package web

import (
	"embed"
	"io/fs"
)

//go:embed dist
var files embed.FS

// Files returns the built page: index.html, app.js, style.css.
func Files() fs.FS {
	sub, err := fs.Sub(files, "dist")
	if err != nil {
		panic(err) // dist is embedded: it is always there
	}
	return sub
}
