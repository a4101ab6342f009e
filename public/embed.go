// Package public holds the site's static files (CSS, JavaScript, icons, sounds),
// embedded into the binary and served under a content-hashed URL.
package public

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
)

// Files are the embedded static files, rooted at this folder
// (paths such as "css/site.css").
//
//go:embed css js icons sounds
var Files embed.FS

// The game's sounds are synthesised by cmd/gensounds (G20).
//go:generate go run ../cmd/gensounds -out sounds

// Version is one hash over every embedded file. URLs carry it
// (/assets/<Version>/css/site.css) so they can be cached for a year and
// still change the moment any file changes; because all files share it,
// ES modules can import each other with relative paths.
var Version = computeVersion()

func computeVersion() string {
	h := sha256.New()
	// WalkDir visits in lexical order, so the hash is deterministic.
	err := fs.WalkDir(Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := Files.ReadFile(path)
		if err != nil {
			return err
		}
		h.Write([]byte(path))
		h.Write([]byte{0})
		h.Write(b)
		return nil
	})
	if err != nil {
		panic("public: hash embedded files: " + err.Error()) // embedded files are always readable
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// URL returns the hashed URL of a file, such as "/assets/3f2a…/js/board.js".
func URL(path string) string {
	return "/assets/" + Version + "/" + path
}
