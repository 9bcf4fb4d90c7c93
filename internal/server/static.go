package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// page serves the browser page's built files from memory: each with a
// strong ETag (a hash of its content), gzip-compressed once at start for
// clients that take it, and index.html with its assets' addresses stamped
// with their hashes, so that a browser may keep an asset for good (its
// address changes with it) and need only ask whether index.html changed.
type page struct {
	files map[string]*pageFile // by name: "index.html", "app.js", ...
}

// pageFile is one file of the page, ready to send.
type pageFile struct {
	kind string // Content-Type
	etag string // quoted
	hash string // the content's short hash, the v= of its stamped address
	raw  []byte
	gz   []byte // nil when gzip does not make it smaller
}

// The Cache-Control values the page is sent with: index.html and any
// address without the current stamp are checked with the server on every
// use (it answers 304 while the ETag matches); a stamped asset is kept.
const (
	cacheCheck   = "no-cache"
	cacheForever = "public, max-age=31536000, immutable"
)

// newPage reads every file at the top of fsys and prepares it to send.
func newPage(fsys fs.FS) (*page, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("server: reading the page: %w", err)
	}
	p := &page{files: map[string]*pageFile{}}
	var index []byte
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("server: reading the page: %w", err)
		}
		if e.Name() == "index.html" {
			index = b
			continue
		}
		p.files[e.Name()] = newPageFile(e.Name(), b)
	}
	if index == nil {
		return nil, fmt.Errorf("server: the page has no index.html")
	}
	for name, f := range p.files {
		index = bytes.ReplaceAll(index, []byte(`"/web/`+name+`"`), []byte(`"/web/`+name+`?v=`+f.hash+`"`))
	}
	p.files["index.html"] = newPageFile("index.html", index)
	return p, nil
}

// newPageFile hashes and compresses b, the file called name.
func newPageFile(name string, b []byte) *pageFile {
	sum := sha256.Sum256(b)
	h := hex.EncodeToString(sum[:8])
	f := &pageFile{kind: mime.TypeByExtension(path.Ext(name)), etag: `"` + h + `"`, hash: h, raw: b}
	if f.kind == "" {
		f.kind = "application/octet-stream"
	}
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write(b)
	w.Close()
	if z.Len() < len(b) {
		f.gz = z.Bytes()
	}
	return f
}

// serve answers GET and HEAD for the file called name: 304 when the
// request's If-None-Match holds its ETag, gzip when the request accepts it,
// kept for good when asked for at its stamped address.
func (p *page) serve(w http.ResponseWriter, r *http.Request, name string) {
	f := p.files[name]
	if f == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("ETag", f.etag)
	h.Set("Vary", "Accept-Encoding")
	if name != "index.html" && r.URL.Query().Get("v") == f.hash {
		h.Set("Cache-Control", cacheForever)
	} else {
		h.Set("Cache-Control", cacheCheck)
	}
	if etagMatch(r.Header.Get("If-None-Match"), f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.raw
	if f.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		body = f.gz
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Type", f.kind)
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// etagMatch reports whether an If-None-Match header value names etag
// (or is "*"); weak validators match too, as RFC 9110 has it for GET.
func etagMatch(header, etag string) bool {
	for v := range strings.SplitSeq(header, ",") {
		v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
		if v == etag || v == "*" {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether an Accept-Encoding header value takes gzip
// (and does not refuse it with q=0).
func acceptsGzip(header string) bool {
	for v := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(v), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
