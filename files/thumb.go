package files

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
)

// ThumbnailWidths are the widths a thumbnail is made at, narrowest first.
// Do not change it: thumbnails are kept by width under thumbs/.
var ThumbnailWidths = []int{160, 320, 640, 1280}

// MaxThumbnailPixels is the largest image, in pixels, that Thumbnail
// decodes. A larger one is a possible decompression bomb (a few kilobytes
// of PNG can declare 100,000 x 100,000 pixels, 40 GB once decoded): its
// dimensions are read from its header alone and it gets no thumbnail.
const MaxThumbnailPixels = 50_000_000

// ErrThumbnailWidth says a thumbnail was asked for at a width that is not
// one of ThumbnailWidths.
var ErrThumbnailWidth = errors.New("files: a thumbnail's width must be 160, 320, 640 or 1280")

// HasThumbnails reports whether documents of type mime get thumbnails:
// PNG, JPEG and WebP.
func HasThumbnails(mime string) bool {
	_, ok := thumbnailCodecs[mime]
	return ok
}

// IsThumbnailWidth reports whether w is one of ThumbnailWidths.
func IsThumbnailWidth(w int) bool { return slices.Contains(ThumbnailWidths, w) }

// thumbnailQuality is the JPEG quality of thumbnails: small files, with no
// blocks visible on chart lines and text at these sizes.
const thumbnailQuality = 85

// Thumbnail opens the blob hash, an image of type mime, scaled down to at
// most width pixels wide, its aspect kept: a PNG for a PNG (transparency
// kept), a JPEG for a JPEG or a WebP (transparency on white). It is made
// on the first request and kept at thumbs/<width>/<hash>.<png|jpg>, where
// the next request finds it; two first requests at once may both make it,
// and each serves a whole file. The caller closes f; contentType is
// "image/png" or "image/jpeg".
//
// The answers:
//   - ok: serve f as contentType.
//   - !ok, err == nil: there is no thumbnail of this document; serve the
//     original (Open), as when no width is asked for. That is a type other
//     than image/png, image/jpeg and image/webp; an image no wider than
//     width (never enlarged); one above MaxThumbnailPixels (never decoded);
//     and one that does not decode (broken or cut short).
//   - err == ErrThumbnailWidth: width is not one of ThumbnailWidths,
//     whatever the type (check IsThumbnailWidth first to refuse it before
//     anything is read).
//   - errors.Is(err, fs.ErrNotExist): the blob is not stored, as from Open.
//   - any other err: reading the blob or keeping the thumbnail failed (a
//     full disk, say), as a failing Open or Place would.
func (s *Store) Thumbnail(hash, mime string, width int) (f *os.File, contentType string, ok bool, err error) {
	if !IsThumbnailWidth(width) {
		return nil, "", false, ErrThumbnailWidth
	}
	codec, ok := thumbnailCodecs[mime]
	if !ok {
		return nil, "", false, nil
	}
	src, err := s.blobPath(hash)
	if err != nil {
		return nil, "", false, err
	}
	path := s.thumbnailPath(hash, codec.ext, width)
	if f, err := os.Open(path); err == nil {
		return f, codec.contentType, true, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", false, err
	}

	in, err := os.Open(src)
	if err != nil {
		return nil, "", false, err
	}
	defer in.Close()
	r := &readErr{r: in}
	img, err := decodeForThumbnail(r, codec, width)
	if r.err != nil {
		return nil, "", false, r.err // the disk's failure, not the image's
	}
	if err != nil || img == nil {
		return nil, "", false, nil // a broken image, too large, or narrow enough
	}
	f, err = s.keepThumbnail(scale(img, width, codec.ext == "png"), codec, hash, path)
	if err != nil {
		return nil, "", false, err
	}
	return f, codec.contentType, true, nil
}

// thumbnailCodec is how an image type is read, and how its thumbnails are
// written.
type thumbnailCodec struct {
	decodeConfig func(io.Reader) (image.Config, error)
	decode       func(io.Reader) (image.Image, error)
	ext          string // of the thumbnail: "png" or "jpg"
	contentType  string
}

// thumbnailCodecs decode each type with its own decoder, never image.Decode,
// so a document is read only as the type it was stored as.
var thumbnailCodecs = map[string]thumbnailCodec{
	"image/png":  {png.DecodeConfig, png.Decode, "png", "image/png"},
	"image/jpeg": {jpeg.DecodeConfig, jpeg.Decode, "jpg", "image/jpeg"},
	"image/webp": {webp.DecodeConfig, webp.Decode, "jpg", "image/jpeg"},
}

// decodeForThumbnail decodes the image r holds if it needs a thumbnail at
// width: it returns nil, nil for an image no wider than width, and for one
// above MaxThumbnailPixels, whose header alone is read.
func decodeForThumbnail(r io.ReadSeeker, codec thumbnailCodec, width int) (img image.Image, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	cfg, err := codec.decodeConfig(br)
	if err != nil {
		return nil, err
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxThumbnailPixels || cfg.Width <= width {
		return nil, nil
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	br.Reset(r)
	// The decoders are fuzzed, but a document is anyone's file: a decoder
	// that panics on it means no thumbnail, not a dropped connection.
	defer func() {
		if p := recover(); p != nil {
			img, err = nil, fmt.Errorf("files: decoder panic: %v", p)
		}
	}()
	return codec.decode(br)
}

// Scaling. Measured on a 3840x2160 picture of one-pixel lines, the worst
// case for aliasing, against the flat grey it should become (RMS error in
// levels of 255, time and memory at w=320 on the 2-core machine):
//
//	CatmullRom       0.3   261 ms  23 MB
//	BiLinear         1.0   158 ms  23 MB
//	ApproxBiLinear  68.4     1 ms   0.2 MB
//	halvings + ABL  11.5    73 ms  11 MB
//
// ApproxBiLinear blends the 4 nearest pixels whatever the factor, so at
// 12x it samples lines rather than averaging them: moiré on every chart.
// CatmullRom averages over its whole footprint and stays sharp, so it is
// the kernel; a thumbnail is made once and kept, so its time is paid once.
// Its cost is a float buffer of 32 bytes per (thumbnail width x source
// height): 1 GB for a 1300 x 38,000 scrolling screenshot at 1280. Above
// kernelBudget the source is first halved (ApproxBiLinear at exactly 2x
// averages each 2x2 block) while it stays at least width wide; an image
// still over budget after that (a tall strip barely wider than width) is
// scaled by ApproxBiLinear, which at less than 2x aliases little.
const kernelBudget = 64 << 20

// scale draws img at width, its height in proportion (at least 1 pixel).
// With alpha the result keeps img's transparency; without, it is laid on
// white (a JPEG has no alpha).
func scale(img image.Image, width int, alpha bool) *image.RGBA {
	b := img.Bounds()
	height := max(1, int((int64(b.Dy())*int64(width)+int64(b.Dx())/2)/int64(b.Dx())))
	for int64(width)*int64(b.Dy())*32 > kernelBudget && b.Dx() >= 2*width {
		half := image.NewRGBA(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
		draw.ApproxBiLinear.Scale(half, half.Bounds(), img, b, draw.Src, nil)
		img, b = half, half.Bounds()
	}
	var q draw.Interpolator = draw.CatmullRom
	if int64(width)*int64(b.Dy())*32 > kernelBudget {
		q = draw.ApproxBiLinear
	}
	dst := image.NewRGBA(image.Rect(0, 0, width, height))
	op := draw.Src
	if !alpha {
		draw.Draw(dst, dst.Bounds(), image.White, image.Point{}, draw.Src)
		op = draw.Over
	}
	q.Scale(dst, dst.Bounds(), img, b, op, nil)
	return dst
}

// keepThumbnail writes img to a temp file, synced (a crash must not leave
// a thumbnail cut short where the next request would serve it as whole),
// and renames it to path. It returns the file open at its start.
func (s *Store) keepThumbnail(img *image.RGBA, codec thumbnailCodec, hash, path string) (*os.File, error) {
	f, err := os.CreateTemp(s.tmpDir(), "thumb-*")
	if err != nil {
		return nil, err
	}
	keep := false
	defer func() {
		if !keep {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := bufio.NewWriterSize(f, 64<<10)
	if codec.ext == "png" {
		err = png.Encode(w, img)
	} else {
		err = jpeg.Encode(w, img, &jpeg.Options{Quality: thumbnailQuality})
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o700)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return nil, err
	}
	// Remove may have removed the blob, and its thumbnails, while this one
	// was made: then this one must go too. Remove deletes the blob before
	// the thumbnails, so either it sees this file or this sees the blob gone.
	if ok, err := s.Has(hash); err != nil || !ok {
		os.Remove(path)
		if err == nil {
			err = fmt.Errorf("files: blob %s removed while its thumbnail was made: %w", hash, fs.ErrNotExist)
		}
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	keep = true
	return f, nil
}

// thumbnailPath is where the thumbnail of hash at width is kept.
func (s *Store) thumbnailPath(hash, ext string, width int) string {
	return filepath.Join(s.dir, "thumbs", strconv.Itoa(width), hash+"."+ext)
}

// RemoveThumbnails removes every thumbnail of the blob hash; none is not
// an error. Call it after Remove: a thumbnail made meanwhile from the blob
// removes itself when it finds the blob gone (see keepThumbnail), so blob
// first, thumbnails second leaves none behind.
func (s *Store) RemoveThumbnails(hash string) error {
	if _, err := s.blobPath(hash); err != nil {
		return err
	}
	for _, w := range ThumbnailWidths {
		for _, ext := range []string{"png", "jpg"} {
			err := os.Remove(s.thumbnailPath(hash, ext, w))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// Thumbnails lists every file under thumbs/, each named by the hash of the
// blob it was made from, or "" when it is no thumbnail Thumbnail makes, for
// a check to remove those whose blob is gone.
func (s *Store) Thumbnails() ([]Entry, error) {
	var out []Entry
	root := filepath.Join(s.dir, "thumbs")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == root {
			return fs.SkipAll // no thumbnail made yet
		}
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		name := ""
		hash, ext, _ := strings.Cut(d.Name(), ".")
		w, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if _, err := s.blobPath(hash); err == nil && (ext == "png" || ext == "jpg") && IsThumbnailWidth(w) && s.thumbnailPath(hash, ext, w) == path {
			name = hash
		}
		out = append(out, Entry{Name: name, Path: path, Size: info.Size(), ModTime: info.ModTime()})
		return nil
	})
	return out, err
}

// readErr remembers the first error of its reader other than EOF, to tell
// a disk's failure from a decoder's refusal of the bytes it read.
type readErr struct {
	r   io.ReadSeeker
	err error
}

func (r *readErr) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF && r.err == nil {
		r.err = err
	}
	return n, err
}

func (r *readErr) Seek(offset int64, whence int) (int64, error) {
	n, err := r.r.Seek(offset, whence)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}
