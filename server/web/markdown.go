package web

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Markdown fields (a write-up's content, a report card's notes, a plan)
// show as CommonMark (DESIGN §13), with goldmark: raw HTML is escaped and
// shown as the text it is, never passed through; a link to a dangerous
// scheme (javascript:) loses its address; links get rel="noopener
// nofollow"; an image shows only from this server's signed document links,
// any other becomes its alt text.

// markdownRenderer is the pages' one CommonMark renderer; it holds no
// state between calls.
var markdownRenderer = goldmark.New(
	goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(safeLinks{}, 100))),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(escapedHTML{}, 100))),
)

// renderMarkdown is text as CommonMark HTML, safe to put in a page.
func renderMarkdown(src string) template.HTML {
	var b bytes.Buffer
	if err := markdownRenderer.Convert([]byte(src), &b); err != nil {
		return template.HTML(template.HTMLEscapeString(src)) // the text as it is
	}
	return template.HTML(b.String()) // goldmark escapes text; raw HTML is escaped below
}

// safeLinks marks every link nofollow and noopener, and turns an image not
// served by this server into its alt text.
type safeLinks struct{}

func (safeLinks) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	var images []*ast.Image
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link, *ast.AutoLink:
			n.SetAttributeString("rel", []byte("noopener nofollow"))
		case *ast.Image:
			if !strings.HasPrefix(string(n.Destination), "/api/v1/files/") {
				images = append(images, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, img := range images {
		parent := img.Parent()
		for c := img.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, img, c)
			c = next
		}
		parent.RemoveChild(parent, img)
	}
}

// escapedHTML renders raw HTML, inline or as a block, as escaped text.
type escapedHTML struct{}

func (escapedHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			segs := n.(*ast.RawHTML).Segments
			for i := range segs.Len() {
				seg := segs.At(i)
				w.Write(util.EscapeHTML(seg.Value(source)))
			}
		}
		return ast.WalkSkipChildren, nil
	})
	reg.Register(ast.KindHTMLBlock, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		b := n.(*ast.HTMLBlock)
		if entering {
			w.WriteString("<p>")
			for i := range b.Lines().Len() {
				line := b.Lines().At(i)
				w.Write(util.EscapeHTML(line.Value(source)))
			}
			if b.HasClosure() {
				w.Write(util.EscapeHTML(b.ClosureLine.Value(source)))
			}
			w.WriteString("</p>\n")
		}
		return ast.WalkSkipChildren, nil
	})
}
