package main

import (
	"encoding/xml"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/rml-lab/rml/ui/store"
)

// The first screen is the first lesson's: its text, its settings and its
// data's Euclidean view, one marker a row, in markup an XML parser reads
// (no stray '<' or '&' from the text).
func TestFirstScreen(t *testing.T) {
	s, err := firstScreen("../../assets/datasets")
	if err != nil {
		t.Fatal(err)
	}
	pr := store.Presets[0]
	d := xml.NewDecoder(strings.NewReader(s))
	d.Strict, d.AutoClose, d.Entity = true, xml.HTMLAutoClose, xml.HTMLEntity
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("the first screen is not well-formed: %v", err)
			}
			break
		}
		if c, ok := tok.(xml.CharData); ok {
			text.Write(c)
		}
	}
	if !strings.Contains(text.String(), pr.Text) || !strings.Contains(text.String(), pr.Title) {
		t.Error("the first screen lacks the first lesson's title or text")
	}
	// One marker a row: the synthetic set's 600 rows, 90 of them held out
	// (squares, closed by z). The interval is Wilson's for 11 of 90, 0.0696–0.2057.
	img := regexp.MustCompile(`<img class="view-img"[^>]* src="data:image/svg\+xml,([^"]*)"`).FindStringSubmatch(s)
	if img == nil {
		t.Fatal("no image of the Euclidean view")
	}
	svg, err := url.PathUnescape(img[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
		t.Errorf("the view's SVG does not parse: %v", err)
	}
	moves := 0
	for _, m := range regexp.MustCompile(` d="([^"]*)"`).FindAllStringSubmatch(svg, -1) {
		moves += strings.Count(m[1], "M")
	}
	if moves != 600 {
		t.Errorf("%d markers, want 600", moves)
	}
	if !strings.Contains(s, "12.2%") || !strings.Contains(s, "7.0–20.6 %, 11 of 90 rows") {
		t.Errorf("the Euclidean error or its interval is not the page's: %s", regexp.MustCompile(`err-line.{0,200}`).FindString(s))
	}
}
