// goproxy writes one version of a Go module into a module proxy tree (https://go.dev/ref/mod#goproxy-protocol):
// <out>/<escaped module path>/@v/{list, <version>.info, <version>.mod, <version>.zip}, which `GOPROXY=file://<out>`
// or any static file server serves as `go mod download` expects. The zip is made by golang.org/x/mod/zip, the
// code the go command itself uses; a module in a repository's subfolder with no LICENSE of its own gets the
// repository's (-license), as the go command adds it when it zips a tag. So the zip, and its h1: hash in go.sum, are
// the same as the one proxy.golang.org serves once the module's tag is pushed.
//
//	goproxy -dir sdk/go -license LICENSE -version v0.6.0 -time 2026-01-02T03:04:05Z -out release/v0.6.0/goproxy
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	modzip "golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("dir", "", "the module's folder (holding its go.mod)")
	license := flag.String("license", "", "the repository's LICENSE, added to the zip when the module's folder has none")
	version := flag.String("version", "", "the version to write (v<semver>, no +build metadata)")
	stamp := flag.String("time", "", "the version's time in RFC 3339 (the commit's), for <version>.info")
	out := flag.String("out", "", "the proxy tree's root (created if missing)")
	flag.Parse()
	if *dir == "" || *version == "" || *stamp == "" || *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: goproxy -dir <module folder> [-license <LICENSE>] -version <v> -time <RFC 3339> -out <proxy root>")
		os.Exit(2)
	}
	if err := write(*dir, *license, *version, *stamp, *out); err != nil {
		fmt.Fprintf(os.Stderr, "goproxy: %v\n", err)
		os.Exit(1)
	}
}

// write adds one version of the module in dir to the proxy tree at out, and prints its files' folder.
func write(dir, license, version, stamp, out string) error {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return fmt.Errorf("%s is not a Go module's folder: %w", dir, err)
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return fmt.Errorf("%s has no module line", filepath.Join(dir, "go.mod"))
	}
	// The checks the go command makes of a module version: a canonical semver, and a major version that agrees
	// with the path's /vN suffix.
	mv := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return fmt.Errorf("%w (a Go version is v<major>.<minor>.<patch>[-pre], with no +build metadata)", err)
	}
	if semver.Canonical(version) != version {
		return fmt.Errorf("%s is not a canonical Go version (write %q)", version, semver.Canonical(version))
	}
	when, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return fmt.Errorf("-time %q is not RFC 3339: %w", stamp, err)
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	at := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}

	zipped, err := moduleZip(mv, dir, license)
	if err != nil {
		return fmt.Errorf("the module zip of %s: %w", dir, err)
	}
	if err := os.WriteFile(filepath.Join(at, version+".zip"), zipped, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(at, version+".mod"), gomod, 0o644); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, when.UTC()})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(at, version+".info"), append(info, '\n'), 0o644); err != nil {
		return err
	}

	// list: every version the tree holds, one a line, this one added to those written before.
	versions := []string{version}
	if old, err := os.ReadFile(filepath.Join(at, "list")); err == nil {
		for _, v := range strings.Fields(string(old)) {
			if v != version {
				versions = append(versions, v)
			}
		}
	}
	semver.Sort(versions)
	if err := os.WriteFile(filepath.Join(at, "list"), []byte(strings.Join(versions, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Println(at)
	return nil
}

// moduleZip is the module's zip as the go command makes it from a tag: the files CreateFromDir selects (no nested
// modules, no vendor/, no VCS folders), and the repository's LICENSE when the module's folder has none.
func moduleZip(mv module.Version, dir, license string) ([]byte, error) {
	var first bytes.Buffer
	if err := modzip.CreateFromDir(&first, mv, dir); err != nil {
		return nil, err
	}
	if license == "" {
		return first.Bytes(), nil
	}
	reader, err := zip.NewReader(bytes.NewReader(first.Bytes()), int64(first.Len()))
	if err != nil {
		return nil, err
	}
	prefix := mv.Path + "@" + mv.Version + "/"
	var files []modzip.File
	for _, f := range reader.File {
		name := strings.TrimPrefix(f.Name, prefix)
		if name == "LICENSE" {
			return first.Bytes(), nil
		}
		files = append(files, zipEntry{name, f})
	}
	data, err := os.ReadFile(license)
	if err != nil {
		return nil, fmt.Errorf("-license: %w", err)
	}
	files = append(files, dataFile{"LICENSE", data})
	var second bytes.Buffer
	if err := modzip.Create(&second, mv, files); err != nil {
		return nil, err
	}
	return second.Bytes(), nil
}

// zipEntry is a file of the first zip, as modzip.Create takes it.
type zipEntry struct {
	name string
	f    *zip.File
}

func (e zipEntry) Path() string                 { return e.name }
func (e zipEntry) Lstat() (fs.FileInfo, error)  { return e.f.FileInfo(), nil }
func (e zipEntry) Open() (io.ReadCloser, error) { return e.f.Open() }

// dataFile is the LICENSE added, as modzip.Create takes it.
type dataFile struct {
	name string
	data []byte
}

func (d dataFile) Path() string                 { return d.name }
func (d dataFile) Lstat() (fs.FileInfo, error)  { return dataInfo{d}, nil }
func (d dataFile) Open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(d.data)), nil }

// dataInfo is what modzip.Create reads of the added file: a regular file of its size.
type dataInfo struct{ d dataFile }

func (i dataInfo) Name() string       { return filepath.Base(i.d.name) }
func (i dataInfo) Size() int64        { return int64(len(i.d.data)) }
func (i dataInfo) Mode() fs.FileMode  { return 0o644 }
func (i dataInfo) ModTime() time.Time { return time.Time{} }
func (i dataInfo) IsDir() bool        { return false }
func (i dataInfo) Sys() any           { return nil }
