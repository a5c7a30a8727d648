package main

import (
	"embed"
	"io/fs"
)

// testdata is the shared folder that files://{+path} serves, embedded in the
// binary: a couple of text files, a PNG and a nested directory.
//
//go:embed testdata
var testdata embed.FS

// sharedFolder is testdata with the "testdata/" prefix taken off, so that
// files://notes.txt is testdata/notes.txt.
func sharedFolder() fs.FS {
	sub, err := fs.Sub(testdata, "testdata")
	if err != nil {
		panic(err) // "testdata" is a valid path: fs.Sub cannot fail on it
	}
	return sub
}
