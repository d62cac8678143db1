package files

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

var imageTypes = []string{"image/png", "image/jpeg", "image/webp", "application/pdf"}

// picture is a w x h opaque image of colour gradients crossed by one-pixel
// lines, like a chart's screenshot.
func picture(w, h int) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 128, 255}
			if x%50 == 0 || y%40 == 0 {
				c = color.NRGBA{20, 20, 20, 255}
			}
			m.SetNRGBA(x, y, c)
		}
	}
	return m
}

func encodePNG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeJPEG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testWebP is a 400 x 300 lossy WebP whose top-left 100 x 100 corner is
// transparent: a gradient with a dark band, drawn by a Go program and made
// a WebP by cwebp 1.2.4 (-q 80 -alpha_q 100 -exact); no one else's picture.
func testWebP(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "gradient.webp"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// put stores content as a blob, as an upload does, and returns its hash.
func put(t testing.TB, s *Store, content []byte) string {
	t.Helper()
	tmp, err := s.Receive(bytes.NewReader(content), int64(len(content)), imageTypes)
	if err != nil {
		t.Fatalf("Receive: %v", err)
	}
	if err := s.Exclusive(tmp.Place); err != nil {
		t.Fatalf("Place: %v", err)
	}
	return tmp.Hash
}

// kept lists the thumbnails under dir/thumbs, relative to it; none when
// the folder is not there (no thumbnail was ever made).
func kept(t *testing.T, dir string) []string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "thumbs")); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return entries(t, dir, "thumbs")
}

// thumbnail asks for a thumbnail that must exist and returns its bytes.
func thumbnail(t *testing.T, s *Store, hash, mime string, width int) ([]byte, string) {
	t.Helper()
	f, ct, ok, err := s.Thumbnail(hash, mime, width)
	if err != nil || !ok {
		t.Fatalf("Thumbnail(%s, %d): got ok %v, %v; want a thumbnail", mime, width, ok, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return b, ct
}

func TestThumbnail(t *testing.T) {
	webp := testWebP(t)
	tests := []struct {
		name     string
		content  []byte
		mime     string
		width    int
		wantType string // "" for no thumbnail
		wantW    int
		wantH    int
	}{
		// 500 * 320/1000 = 160
		{"PNG", encodePNG(t, picture(1000, 500)), "image/png", 320, "image/png", 320, 160},
		// 500 * 160/1000 = 80
		{"PNG narrowest", encodePNG(t, picture(1000, 500)), "image/png", 160, "image/png", 160, 80},
		// 600 * 640/1000 = 384
		{"JPEG", encodeJPEG(t, picture(1000, 600)), "image/jpeg", 640, "image/jpeg", 640, 384},
		// 733 * 1280/1999 = 469.3: 469
		{"JPEG odd size", encodeJPEG(t, picture(1999, 733)), "image/jpeg", 1280, "image/jpeg", 1280, 469},
		// 300 * 160/400 = 120
		{"WebP", webp, "image/webp", 160, "image/jpeg", 160, 120},
		// 300 * 320/400 = 240
		{"WebP 320", webp, "image/webp", 320, "image/jpeg", 320, 240},
		// 1 * 160/2000 = 0.08: never less than a pixel
		{"a line", encodePNG(t, picture(2000, 1)), "image/png", 160, "image/png", 160, 1},
		// 160 x 14,000 x 32 bytes is over the kernel's budget and 700 is at
		// least twice 160: halved once to 350 x 7000, then 7000 * 160/350 = 3200
		{"tall, halved first", encodePNG(t, picture(700, 14000)), "image/png", 160, "image/png", 160, 3200},
		// over the budget and under twice 160: 14,000 * 160/170 = 13,176.5: 13,176
		{"tall strip", encodePNG(t, picture(170, 14000)), "image/png", 160, "image/png", 160, 13176},
		{"as wide as w", encodePNG(t, picture(320, 100)), "image/png", 320, "", 0, 0},
		{"narrower than w", encodePNG(t, picture(200, 100)), "image/png", 640, "", 0, 0},
		{"WebP narrower than w", webp, "image/webp", 640, "", 0, 0},
		{"JPEG narrower than w", encodeJPEG(t, picture(1000, 600)), "image/jpeg", 1280, "", 0, 0},
		{"PDF", []byte("%PDF-1.4\n" + string(bytes.Repeat([]byte(" "), 100))), "application/pdf", 160, "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := openStore(t)
			hash := put(t, s, tt.content)
			f, ct, ok, err := s.Thumbnail(hash, tt.mime, tt.width)
			if err != nil {
				t.Fatalf("Thumbnail: %v", err)
			}
			if tt.wantType == "" {
				if ok || f != nil {
					t.Errorf("Thumbnail: got ok %v (%s), want none: the original is served", ok, ct)
				}
				if got := kept(t, dir); len(got) != 0 {
					t.Errorf("thumbnails kept: %v, want none", got)
				}
				return
			}
			if !ok {
				t.Fatalf("Thumbnail: got no thumbnail, want a %s", tt.wantType)
			}
			b, err := io.ReadAll(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("the thumbnail does not decode: %v", err)
			}
			if ct != tt.wantType || "image/"+format != tt.wantType {
				t.Errorf("type: got %s, content %s; want %s", ct, format, tt.wantType)
			}
			if cfg.Width != tt.wantW || cfg.Height != tt.wantH {
				t.Errorf("size: got %d x %d, want %d x %d", cfg.Width, cfg.Height, tt.wantW, tt.wantH)
			}
			ext := map[string]string{"image/png": "png", "image/jpeg": "jpg"}[tt.wantType]
			want := filepath.Join(strconv.Itoa(tt.width), hash+"."+ext)
			if got := kept(t, dir); len(got) != 1 || got[0] != want {
				t.Errorf("thumbnails kept: %v, want [%s]", got, want)
			}
			if got := entries(t, dir, "tmp"); len(got) != 0 {
				t.Errorf("temp files: %v, want none", got)
			}
		})
	}
}

// TestThumbnailAlpha: a PNG's thumbnail keeps its transparency; a WebP's,
// a JPEG, has the transparent part white. The colours survive the scaling.
func TestThumbnailAlpha(t *testing.T) {
	s, _ := openStore(t)
	m := image.NewNRGBA(image.Rect(0, 0, 800, 400))
	for y := range 400 {
		for x := range 800 {
			c := color.NRGBA{200, 40, 10, 255}
			if x < 400 {
				c = color.NRGBA{0, 0, 0, 0}
			}
			m.SetNRGBA(x, y, c)
		}
	}
	b, _ := thumbnail(t, s, put(t, s, encodePNG(t, m)), "image/png", 160)
	got, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if c := color.NRGBAModel.Convert(got.At(20, 40)).(color.NRGBA); c.A != 0 {
		t.Errorf("PNG's transparent half: got %v, want transparent", c)
	}
	if c := color.NRGBAModel.Convert(got.At(140, 40)).(color.NRGBA); c != (color.NRGBA{200, 40, 10, 255}) {
		t.Errorf("PNG's opaque half: got %v, want {200 40 10 255}", c)
	}

	b, _ = thumbnail(t, s, put(t, s, testWebP(t)), "image/webp", 320)
	got, err = jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// The transparent corner is 100 x 100 of 400 x 300: 80 x 80 at 320.
	if r, g, b, _ := got.At(30, 30).RGBA(); r>>8 < 245 || g>>8 < 245 || b>>8 < 245 {
		t.Errorf("WebP's transparent corner: got %d %d %d, want white", r>>8, g>>8, b>>8)
	}
	// The dark band, rows 140 to 159 of 300: 112 to 127 at 320.
	if r, g, b, _ := got.At(200, 120).RGBA(); r>>8 > 60 || g>>8 > 60 || b>>8 > 60 {
		t.Errorf("WebP's dark band: got %d %d %d, want about 20 20 20", r>>8, g>>8, b>>8)
	}
}

// TestThumbnailKept: the second request is served the kept file, neither
// made again nor read from the blob.
func TestThumbnailKept(t *testing.T) {
	s, dir := openStore(t)
	hash := put(t, s, encodeJPEG(t, picture(900, 300)))
	first, _ := thumbnail(t, s, hash, "image/jpeg", 320)
	kept := filepath.Join(dir, "thumbs", "320", hash+".jpg")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(kept, old, old); err != nil {
		t.Fatal(err)
	}
	second, ct := thumbnail(t, s, hash, "image/jpeg", 320)
	if info, err := os.Stat(kept); err != nil || !info.ModTime().Equal(old) {
		t.Errorf("the kept thumbnail was written again (%v)", err)
	}
	if !bytes.Equal(first, second) || ct != "image/jpeg" {
		t.Errorf("second request: got %d bytes of %s, want the first's %d of image/jpeg", len(second), ct, len(first))
	}
	if err := os.Remove(filepath.Join(dir, "sha256", hash[:2], hash)); err != nil {
		t.Fatal(err)
	}
	if third, _ := thumbnail(t, s, hash, "image/jpeg", 320); !bytes.Equal(first, third) {
		t.Errorf("with the blob gone: got %d bytes, want the kept %d", len(third), len(first))
	}
	// Another width of the blob now gone: nothing to make it from.
	if _, _, ok, err := s.Thumbnail(hash, "image/jpeg", 160); ok || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a new width of a missing blob: got ok %v, %v; want fs.ErrNotExist", ok, err)
	}
}

// pngChunk is a PNG chunk with its CRC.
func pngChunk(kind string, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	b = append(b, kind...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(append([]byte(kind), data...)))
}

// pngBomb is a valid PNG header declaring w x h RGBA pixels, followed by
// the start of its pixels: decoding it allocates w x h x 4 bytes first.
func pngBomb(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0) // 8 bits, RGBA, deflate, no filter, no interlace
	b := append([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr)...)
	// A zlib stream of a few rows of zeros, cut short as a bomb's would be
	// read before the memory runs out.
	b = append(b, pngChunk("IDAT", []byte{0x78, 0x9c, 0xec, 0xc1, 0x01, 0x0d, 0x00, 0x00})...)
	return append(b, pngChunk("IEND", nil)...)
}

// jpegBomb is a real JPEG whose frame header is made to declare w x h
// pixels, cut short two bytes into its scan: decoding it allocates w x h x
// 1.5 bytes first.
func jpegBomb(t testing.TB, w, h uint16) []byte {
	b := encodeJPEG(t, picture(64, 64))
	seg := func(marker byte) int { // the offset of the segment marker
		i := 2
		for b[i+1] != marker {
			i += 2 + int(binary.BigEndian.Uint16(b[i+2:]))
		}
		return i
	}
	sof := seg(0xc0) // ff c0, length, precision, height, width
	binary.BigEndian.PutUint16(b[sof+5:], h)
	binary.BigEndian.PutUint16(b[sof+7:], w)
	sos := seg(0xda)
	return b[:sos+2+int(binary.BigEndian.Uint16(b[sos+2:]))+2]
}

// webpBomb is the lossy frame of testWebP in a WebP of its own, its frame
// header made to declare w x h pixels (14 bits each): decoding it
// allocates w x h x 1.5 bytes first.
func webpBomb(t testing.TB, w, h uint16) []byte {
	src := testWebP(t)
	i := bytes.Index(src, []byte("VP8 "))
	if i < 0 {
		t.Fatal("testdata/gradient.webp has no VP8 chunk")
	}
	chunk := bytes.Clone(src[i : i+8+int(binary.LittleEndian.Uint32(src[i+4:]))])
	k := bytes.Index(chunk, []byte{0x9d, 0x01, 0x2a}) // a key frame's start code
	binary.LittleEndian.PutUint16(chunk[k+3:], w)
	binary.LittleEndian.PutUint16(chunk[k+5:], h)
	b := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(4+len(chunk)))...)
	return append(append(b, "WEBP"...), chunk...)
}

// TestThumbnailBomb: an image declaring more than 50 megapixels is never
// decoded: only its header is read, no thumbnail is kept, and the request
// allocates kilobytes, not the gigabytes of its pixels.
func TestThumbnailBomb(t *testing.T) {
	tests := []struct {
		name, mime string
		content    []byte
	}{
		{"PNG 100,000 x 100,000", "image/png", pngBomb(100_000, 100_000)},
		{"PNG 10,000 x 5,001, just over", "image/png", pngBomb(10_000, 5_001)},
		{"JPEG 65,535 x 65,535", "image/jpeg", jpegBomb(t, 65_535, 65_535)},
		{"WebP 16,383 x 16,383", "image/webp", webpBomb(t, 16_383, 16_383)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := openStore(t)
			hash := put(t, s, tt.content)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			f, _, ok, err := s.Thumbnail(hash, tt.mime, 160)
			runtime.ReadMemStats(&after)
			if ok || err != nil {
				f.Close()
				t.Fatalf("Thumbnail: got ok %v, %v; want no thumbnail and no error", ok, err)
			}
			const limit = 1 << 20
			if d := after.TotalAlloc - before.TotalAlloc; d > limit {
				t.Errorf("allocated %d bytes, want under %d: the image was decoded", d, limit)
			}
			if d := int64(after.HeapAlloc) - int64(before.HeapAlloc); d > limit {
				t.Errorf("the heap grew by %d bytes, want under %d", d, limit)
			}
			if got := kept(t, dir); len(got) != 0 {
				t.Errorf("thumbnails kept: %v, want none", got)
			}
		})
	}
}

// TestThumbnailWidthRefused: only the four widths are made, and another is
// refused whatever the document is, before anything is read.
func TestThumbnailWidthRefused(t *testing.T) {
	s, _ := openStore(t)
	hash := put(t, s, encodePNG(t, picture(2000, 100)))
	for _, w := range []int{0, -320, 1, 159, 161, 300, 321, 1000, 1281, 2560} {
		for _, mime := range []string{"image/png", "application/pdf"} {
			if _, _, ok, err := s.Thumbnail(hash, mime, w); ok || err != ErrThumbnailWidth {
				t.Errorf("Thumbnail(%s, %d): got ok %v, %v; want %v", mime, w, ok, err, ErrThumbnailWidth)
			}
		}
		if IsThumbnailWidth(w) {
			t.Errorf("IsThumbnailWidth(%d): got true", w)
		}
	}
	for _, w := range ThumbnailWidths {
		if !IsThumbnailWidth(w) {
			t.Errorf("IsThumbnailWidth(%d): got false", w)
		}
	}
}

// TestThumbnailBroken: an image that does not decode gets no thumbnail
// (the original is served), with no error, no panic and nothing left.
func TestThumbnailBroken(t *testing.T) {
	p := encodePNG(t, picture(1000, 500))
	j := encodeJPEG(t, picture(1000, 500))
	w := testWebP(t)
	tests := []struct {
		name, mime string
		content    []byte
	}{
		{"PNG cut in half", "image/png", p[:len(p)/2]},
		{"PNG cut after its header", "image/png", p[:40]},
		{"JPEG cut in half", "image/jpeg", j[:len(j)/2]},
		{"WebP cut in half", "image/webp", w[:len(w)/2]},
		{"PNG with a byte flipped in its pixels", "image/png", flip(p, len(p)/2)},
		{"a PNG stored as a JPEG", "image/jpeg", p},
		{"a JPEG stored as a WebP", "image/webp", j},
		{"text stored as a PNG", "image/png", []byte("\x89PNG\r\n\x1a\n no image here")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := openStore(t)
			hash := put(t, s, tt.content)
			f, ct, ok, err := s.Thumbnail(hash, tt.mime, 160)
			if ok || err != nil {
				if f != nil {
					f.Close()
				}
				t.Fatalf("Thumbnail: got ok %v (%s), %v; want no thumbnail and no error", ok, ct, err)
			}
			if got := kept(t, dir); len(got) != 0 {
				t.Errorf("thumbnails kept: %v, want none", got)
			}
			if got := entries(t, dir, "tmp"); len(got) != 0 {
				t.Errorf("temp files: %v, want none", got)
			}
		})
	}
}

func flip(b []byte, i int) []byte {
	b = bytes.Clone(b)
	b[i] ^= 0xff
	return b
}

// TestThumbnailConcurrent: many first requests for one thumbnail at once
// each get the whole thumbnail, and one file is kept.
func TestThumbnailConcurrent(t *testing.T) {
	s, dir := openStore(t)
	hash := put(t, s, encodePNG(t, picture(1500, 900)))
	const n = 8
	got := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			f, _, ok, err := s.Thumbnail(hash, "image/png", 640)
			if err != nil || !ok {
				t.Errorf("request %d: got ok %v, %v", i, ok, err)
				return
			}
			defer f.Close()
			got[i], _ = io.ReadAll(f)
		})
	}
	wg.Wait()
	kept, err := os.ReadFile(filepath.Join(dir, "thumbs", "640", hash+".png"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(kept)); err != nil || cfg.Width != 640 || cfg.Height != 384 {
		t.Errorf("the kept thumbnail: %d x %d (%v), want 640 x 384", cfg.Width, cfg.Height, err)
	}
	for i, b := range got {
		if !bytes.Equal(b, kept) {
			t.Errorf("request %d: got %d bytes, want the kept %d", i, len(b), len(kept))
		}
	}
	if got := entries(t, dir, "tmp"); len(got) != 0 {
		t.Errorf("temp files: %v, want none", got)
	}
}

// TestThumbnailsListed: Thumbnails names each thumbnail by its blob's hash
// and any other file there by "", and removing a blob removes its
// thumbnails.
func TestThumbnailsListed(t *testing.T) {
	s, dir := openStore(t)
	a := put(t, s, encodePNG(t, picture(700, 100)))
	b := put(t, s, encodeJPEG(t, picture(700, 100)))
	thumbnail(t, s, a, "image/png", 160)
	thumbnail(t, s, a, "image/png", 320)
	thumbnail(t, s, b, "image/jpeg", 640)
	for _, junk := range []string{"320/notes.txt", "320/" + a, "999/" + a + ".png", "320/" + a + ".gif", a + ".png"} {
		p := filepath.Join(dir, "thumbs", junk)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("junk"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	list, err := s.Thumbnails()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, e := range list {
		names[e.Name]++
	}
	if len(list) != 8 || names[a] != 2 || names[b] != 1 || names[""] != 5 {
		t.Errorf("Thumbnails: got %v, want 2 of a, 1 of b, 5 unnamed", names)
	}

	blobs, err := s.Blobs()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range blobs {
		if e.Name == a {
			if err := s.RemovePath(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	list, _ = s.Thumbnails()
	for _, e := range list {
		if e.Name == a {
			t.Errorf("after its blob's removal, %s is still there", e.Path)
		}
	}
	if err := s.RemoveThumbnails(b); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "thumbs", "640", b+".jpg")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after RemoveThumbnails, b's thumbnail: %v, want it gone", err)
	}
	if err := s.RemoveThumbnails("../secret"); err == nil {
		t.Error("RemoveThumbnails of a malformed hash: got nil, want an error")
	}

	empty, _ := openStore(t)
	if list, err := empty.Thumbnails(); err != nil || len(list) != 0 {
		t.Errorf("Thumbnails of a store without any: got %v, %v; want none", list, err)
	}
}

// BenchmarkThumbnail makes the 320-wide thumbnail of a 3840 x 2160 (4K)
// screenshot each time: decode, scale, encode and keep.
func BenchmarkThumbnail(b *testing.B) {
	for _, tt := range []struct {
		name, mime string
		encode     func(testing.TB, image.Image) []byte
	}{
		{"PNG", "image/png", encodePNG},
		{"JPEG", "image/jpeg", encodeJPEG},
	} {
		b.Run(tt.name, func(b *testing.B) {
			dir := b.TempDir()
			s, err := Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			hash := put(b, s, tt.encode(b, picture(3840, 2160)))
			b.ReportAllocs()
			for b.Loop() {
				f, _, ok, err := s.Thumbnail(hash, tt.mime, 320)
				if err != nil || !ok {
					b.Fatalf("Thumbnail: ok %v, %v", ok, err)
				}
				f.Close()
				if err := s.RemoveThumbnails(hash); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestThumbnailNoMoire: one-pixel lines, a chart's grid, become the even
// grey they average to, not the stripes of sampling some lines and
// missing others (ApproxBiLinear's 4 nearest pixels at 10x: RMS 68).
func TestThumbnailNoMoire(t *testing.T) {
	m := image.NewGray(image.Rect(0, 0, 1600, 900))
	for y := range 900 {
		for x := range 1600 {
			if x%7 != 0 && y%11 != 0 {
				m.Pix[y*m.Stride+x] = 255
			}
		}
	}
	s, _ := openStore(t)
	b, _ := thumbnail(t, s, put(t, s, encodePNG(t, m)), "image/png", 160)
	got, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// White is 1 - 1/7 - 1/11 + 1/77 of the pixels: 60/77.
	want := 255 * 60.0 / 77
	var sum float64
	n := 0
	for y := 2; y < 88; y++ { // the edges' kernel reaches past the image
		for x := 2; x < 158; x++ {
			r, _, _, _ := got.At(x, y).RGBA()
			d := float64(r>>8) - want
			sum += d * d
			n++
		}
	}
	if rms := math.Sqrt(sum / float64(n)); rms > 3 {
		t.Errorf("RMS distance from the grey %.1f: %.1f, want at most 3", want, rms)
	}
}

// TestThumbnailOfRemovedBlob: a thumbnail finished after its blob was
// removed (a delete that ran while it was made) removes itself, so no
// thumbnail outlives its blob.
func TestThumbnailOfRemovedBlob(t *testing.T) {
	s, dir := openStore(t)
	hash := put(t, s, encodePNG(t, picture(400, 100)))
	img, err := png.Decode(bytes.NewReader(encodePNG(t, picture(400, 100))))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Remove(hash); err != nil {
		t.Fatal(err)
	}
	codec := thumbnailCodecs["image/png"]
	f, err := s.keepThumbnail(scale(img, 160, true), codec, hash, s.thumbnailPath(hash, codec.ext, 160))
	if !errors.Is(err, fs.ErrNotExist) {
		f.Close()
		t.Errorf("keepThumbnail of a removed blob: got %v, want fs.ErrNotExist", err)
	}
	if got := kept(t, dir); len(got) != 0 {
		t.Errorf("thumbnails kept: %v, want none", got)
	}
	if got := entries(t, dir, "tmp"); len(got) != 0 {
		t.Errorf("temp files: %v, want none", got)
	}
}
