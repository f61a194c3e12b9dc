//go:build helm

package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"helm.sh/helm/v4/pkg/chart/loader/archive"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	chartloader "helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/ignore"
)

// The bounds of a chart, whether a directory or an archive. Helm's own archive loader holds the
// decompressed size (100 MiB in all, 5 MiB a file) of the archive and of every archive in its
// charts/; these hold what it does not: the compressed size, the number of files, and how deep
// archives may nest.
const (
	maxChartArchive = 20 << 20
	maxChartFiles   = 10000
	maxChartNesting = 8
)

// loadedChart is a chart as Helm's loader gives it, with the digest of what was read.
type loadedChart struct {
	chart  *chart.Chart
	digest string
}

// loadChart reads the chart at dir below the artifact (a chart directory, or a .tgz file) as
// `helm template` does, through the artifact's own file access: no link is followed, nothing
// outside the artifact is read.
func loadChart(artifact artifactFS, name string) (loadedChart, error) {
	abs, info, err := artifact.lookup("stat", name)
	if err != nil {
		return loadedChart{}, fmt.Errorf("chart not found: %w", err)
	}
	if info.IsDir() {
		return loadChartDir(abs)
	}
	if info.Size() > maxChartArchive {
		return loadedChart{}, fmt.Errorf("chart archive is larger than the maximum size %d", maxChartArchive)
	}
	data, err := artifact.ReadFile(abs)
	if err != nil {
		return loadedChart{}, err
	}
	if int64(len(data)) > maxChartArchive {
		return loadedChart{}, fmt.Errorf("chart archive is larger than the maximum size %d", maxChartArchive)
	}
	if err := checkArchive(data, 0, new(int)); err != nil {
		return loadedChart{}, fmt.Errorf("chart archive %s refused: %w", filepath.Base(abs), err)
	}
	c, err := chartloader.LoadArchive(bytes.NewReader(data))
	if err != nil {
		if errors.Is(err, gzip.ErrHeader) {
			return loadedChart{}, fmt.Errorf("file '%s' does not appear to be a valid chart file (details: %w)", filepath.Base(abs), err)
		}
		return loadedChart{}, err
	}
	sum := sha256.Sum256(data)
	return loadedChart{c, "sha256:" + hex.EncodeToString(sum[:])}, nil
}

// checkArchive refuses what Helm's archive loader would read without complaint but a chart
// must not hold: links (Helm reads a link entry as an empty file), device files and FIFOs,
// names that leave the chart, more files than maxChartFiles in all (counted across nested
// archives), and archives in charts/ nested deeper than maxChartNesting. It holds Helm's
// loader's size bounds too (a file, the whole archive), as the headers announce the sizes, so that
// a bomb is named as one before anything is decompressed for Helm; it reads at most what they allow.
func checkArchive(data []byte, depth int, files *int) error {
	if depth > maxChartNesting {
		return fmt.Errorf("charts nest deeper than %d archives", maxChartNesting)
	}
	unzipped, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil // not gzip: Helm's loader says so in its own words
	}
	defer unzipped.Close()
	tr := tar.NewReader(io.LimitReader(unzipped, archive.MaxDecompressedChartSize+1<<20))
	var size int64 // of the files so far, which Helm's loader bounds as it decompresses them
	for {
		hd, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("truncated or corrupt archive: %w", err)
		}
		name := strings.ReplaceAll(hd.Name, "\\", "/")
		switch hd.Typeflag {
		case tar.TypeXGlobalHeader, tar.TypeXHeader, tar.TypeDir:
			continue
		case tar.TypeReg, tar.TypeRegA:
		case tar.TypeSymlink, tar.TypeLink:
			return fmt.Errorf("%q is a link; a chart holds only files and directories", name)
		default:
			return fmt.Errorf("%q is not a regular file", name)
		}
		if *files++; *files > maxChartFiles {
			return fmt.Errorf("more than %d files", maxChartFiles)
		}
		if path.IsAbs(name) || strings.HasPrefix(path.Clean(name), "..") || hasParent(name) {
			return fmt.Errorf("%q leaves the chart's directory", name)
		}
		if hd.Size > archive.MaxDecompressedFileSize {
			return fmt.Errorf("decompressed chart file %q is larger than the maximum file size %d", name, archive.MaxDecompressedFileSize)
		}
		if size += hd.Size; size > archive.MaxDecompressedChartSize {
			return fmt.Errorf("decompressed chart is larger than the maximum size %d", archive.MaxDecompressedChartSize)
		}
		if isSubchartArchive(name) {
			nested, err := io.ReadAll(io.LimitReader(tr, archive.MaxDecompressedFileSize))
			if err != nil {
				return fmt.Errorf("truncated or corrupt archive: %w", err)
			}
			if err := checkArchive(nested, depth+1, files); err != nil {
				return fmt.Errorf("in %s: %w", name, err)
			}
		}
	}
}

func hasParent(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return true
		}
	}
	return false
}

// isSubchartArchive says whether an archive entry (top directory first) is a chart archive in
// a charts/ directory, which Helm's loader unpacks in turn.
func isSubchartArchive(name string) bool {
	parts := strings.Split(name, "/")
	return len(parts) >= 3 && parts[len(parts)-2] == "charts" && strings.HasSuffix(name, ".tgz")
}

// loadChartDir reads a chart directory as Helm's directory loader does (its .helmignore and
// default rules, lexical order, a UTF-8 byte-order mark dropped), except that a link or other
// irregular file that is not ignored fails the load: Helm would follow a link, possibly out of
// the artifact; a chart that needs one is not rendered here at all rather than rendered
// differently.
func loadChartDir(dir string) (loadedChart, error) {
	rules := ignore.Empty()
	if data, err := readRegular(filepath.Join(dir, ignore.HelmIgnore)); err == nil {
		if rules, err = ignore.Parse(bytes.NewReader(data)); err != nil {
			return loadedChart{}, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return loadedChart{}, err
	}
	rules.AddDefaults()
	if _, err := readRegular(filepath.Join(dir, "Chart.yaml")); err != nil {
		return loadedChart{}, fmt.Errorf("unable to detect chart at %s: %w", filepath.Join(dir, "Chart.yaml"), err)
	}
	var files []*archive.BufferedFile
	digest := sha256.New()
	err := walkChart(dir, "", rules, func(name string, info fs.FileInfo, data []byte) error {
		if len(files) == maxChartFiles {
			return fmt.Errorf("chart has more than %d files", maxChartFiles)
		}
		data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
		files = append(files, &archive.BufferedFile{Name: name, ModTime: info.ModTime(), Data: data})
		var size [8]byte
		binary.BigEndian.PutUint64(size[:], uint64(len(name)))
		digest.Write(size[:])
		digest.Write([]byte(name))
		binary.BigEndian.PutUint64(size[:], uint64(len(data)))
		digest.Write(size[:])
		digest.Write(data)
		return nil
	})
	if err != nil {
		return loadedChart{}, err
	}
	c, err := chartloader.LoadFiles(files)
	if err != nil {
		return loadedChart{}, err
	}
	return loadedChart{c, "sha256:" + hex.EncodeToString(digest.Sum(nil))}, nil
}

// walkChart visits dir's tree in lexical order, directories before their contents, with
// names relative to the chart and slash-separated, skipping what the rules ignore.
func walkChart(dir, rel string, rules *ignore.Rules, visit func(string, fs.FileInfo, []byte) error) error {
	entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	for _, entry := range entries {
		name := path.Join(rel, entry.Name())
		info, err := entry.Info()
		if err != nil {
			return err
		}
		if rules.Ignore(name, info) {
			continue
		}
		switch {
		case info.IsDir():
			if err := walkChart(dir, name, rules, visit); err != nil {
				return err
			}
		case info.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("chart file %s is a symbolic link, which is not followed", name)
		case !info.Mode().IsRegular():
			return fmt.Errorf("cannot load irregular file %s as it has file mode type bits set", name)
		case info.Size() > archive.MaxDecompressedFileSize:
			return fmt.Errorf("chart file %q is larger than the maximum file size %d", info.Name(), archive.MaxDecompressedFileSize)
		default:
			data, err := readRegular(filepath.Join(dir, filepath.FromSlash(name)))
			if err != nil {
				return fmt.Errorf("error reading %s: %w", name, err)
			}
			if err := visit(name, info, data); err != nil {
				return err
			}
		}
	}
	return nil
}

// readRegular reads a file that must be a regular one (not a link), at most the largest file a
// chart may hold.
func readRegular(name string) ([]byte, error) {
	info, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", filepath.Base(name))
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, archive.MaxDecompressedFileSize+1))
	if err == nil && int64(len(data)) > archive.MaxDecompressedFileSize {
		err = fmt.Errorf("chart file %q is larger than the maximum file size %d", filepath.Base(name), archive.MaxDecompressedFileSize)
	}
	return data, err
}
