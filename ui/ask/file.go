package ask

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/rml-lab/rml/core"
)

// The answers' file is the page's triplet file, "anchor,similar,dissimilar"
// one answer a line (every answer not skipped, in the order asked), whose
// header names the item set, its seed and, if given, who answered:
//
//	anchor (colours seed 1),similar,dissimilar (answered by Ana)
//
// so that it also loads as a triplet file on the items' dataset.

var header = regexp.MustCompile(`^anchor \(([a-z]+) seed ([0-9]+)\),similar,dissimilar(?: \(answered by ([^,"\r\n]*)\))?\r?$`)

// cleanName keeps a name to what the header can hold: no commas, quotes or
// line breaks, at most 40 characters.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ',', '"', '\r', '\n', '(', ')':
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40])
	}
	return s
}

// FileText is the answers' file of ts on it, by name ("" for none).
func FileText(it *Items, name string, ts [][3]int) string {
	var b strings.Builder
	b.WriteString("anchor (" + it.Set + " seed " + strconv.FormatUint(it.Seed, 10) + "),similar,dissimilar")
	if n := cleanName(name); n != "" {
		b.WriteString(" (answered by " + n + ")")
	}
	b.WriteByte('\n')
	for _, t := range ts {
		b.WriteString(strconv.Itoa(t[0]) + "," + strconv.Itoa(t[1]) + "," + strconv.Itoa(t[2]) + "\n")
	}
	return b.String()
}

// File is an answers' file read back.
type File struct {
	Name     string // the file's name
	Set      string
	Seed     uint64
	Who      string // who answered, "" if not said
	Triplets [][3]int
}

// ParseFile reads an answers' file for the items it: its header must name
// their set and seed, and every triplet three of their rows (core's triplet
// reader, whose messages name the line and the field).
func ParseFile(it *Items, fileName, text string) (*File, error) {
	first, _, _ := strings.Cut(text, "\n")
	m := header.FindStringSubmatch(first)
	if m == nil {
		return nil, fmt.Errorf("%s: line 1 is %q; expected the Ask-me header, such as %q", fileName, clip(first), "anchor ("+it.Set+" seed "+strconv.FormatUint(it.Seed, 10)+"),similar,dissimilar")
	}
	seed, err := strconv.ParseUint(m[2], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%s: line 1: seed %q is not a whole number", fileName, m[2])
	}
	if m[1] != it.Set || seed != it.Seed {
		return nil, fmt.Errorf("%s: its answers are about %s seed %d; these items are %s seed %d", fileName, m[1], seed, it.Set, it.Seed)
	}
	ts, err := core.ReadTriplets(strings.NewReader(text), it.Len())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fileName, err)
	}
	f := &File{Name: fileName, Set: m[1], Seed: seed, Who: m[3]}
	for _, t := range ts {
		f.Triplets = append(f.Triplets, [3]int{t.I, t.J, t.K})
	}
	return f, nil
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
