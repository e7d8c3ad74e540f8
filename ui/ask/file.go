package ask

import (
	"errors"
	"strconv"
	"strings"
)

// The answers' file is the page's triplet file, "anchor,similar,dissimilar"
// one answer a line (every answer not skipped, in the order asked), whose
// header names the item set, its seed and, if given, who answered:
//
//	anchor (colours seed 1),similar,dissimilar (answered by Ana)
//
// so that it also loads as a triplet file on the items' dataset.

// parseHeader reads the header line: the set, the seed's digits and who
// answered; ok is false for any other line. (By hand, not by regexp: the
// page's program had no regexp, and it alone cost more than the page's
// size budget had left.)
func parseHeader(line string) (set, seed, who string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSuffix(line, "\r"), "anchor (")
	head, rest, found2 := strings.Cut(rest, "),similar,dissimilar")
	set, seed, found3 := strings.Cut(head, " seed ")
	if !found || !found2 || !found3 || !only(set, "abcdefghijklmnopqrstuvwxyz0123456789-") || !only(seed, "0123456789") {
		return "", "", "", false
	}
	if rest != "" {
		name, by := strings.CutPrefix(rest, " (answered by ")
		if !by || !strings.HasSuffix(name, ")") || strings.ContainsAny(name, ",\"\r\n") {
			return "", "", "", false
		}
		who = strings.TrimSuffix(name, ")")
	}
	return set, seed, who, true
}

// only says whether s is not empty and every byte of it is in chars.
func only(s, chars string) bool {
	for i := range len(s) {
		if !strings.ContainsRune(chars, rune(s[i])) {
			return false
		}
	}
	return s != ""
}

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
// their set and seed, and every line after it three different items. (The
// worker's triplet reader, core's, reads the same file on the items'
// dataset; the page links no core, so the page's own reading is here.)
func ParseFile(it *Items, fileName, text string) (*File, error) {
	lines := strings.Split(strings.TrimRight(text, "\r\n"), "\n")
	set, digits, who, ok := parseHeader(lines[0])
	if !ok {
		return nil, errors.New(fileName + ": line 1 is " + strconv.Quote(clip(lines[0])) + "; expected the Ask-me header, such as " +
			strconv.Quote("anchor ("+it.Set+" seed "+strconv.FormatUint(it.Seed, 10)+"),similar,dissimilar"))
	}
	seed, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return nil, errors.New(fileName + ": line 1: seed " + strconv.Quote(digits) + " is not a whole number")
	}
	if set != it.Set || seed != it.Seed {
		return nil, errors.New(fileName + ": its answers are about " + set + " seed " + digits + "; these items are " + it.Set + " seed " + strconv.FormatUint(it.Seed, 10))
	}
	f := &File{Name: fileName, Set: set, Seed: seed, Who: who}
	names := [3]string{"anchor", "similar", "dissimilar"}
	for n, line := range lines[1:] {
		where := fileName + ": line " + strconv.Itoa(n+2)
		fields := strings.Split(strings.TrimSuffix(line, "\r"), ",")
		if len(fields) != 3 {
			return nil, errors.New(where + ": " + strconv.Itoa(len(fields)) + " fields, expected 3: anchor,similar,dissimilar")
		}
		var t [3]int
		for j, s := range fields {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || v < 0 || v >= it.Len() {
				return nil, errors.New(where + ", column " + strconv.Itoa(j+1) + " (" + names[j] + "): " + strconv.Quote(s) + " is not one of the items, 0 to " + strconv.Itoa(it.Len()-1))
			}
			t[j] = v
		}
		if t[0] == t[1] || t[0] == t[2] || t[1] == t[2] {
			return nil, errors.New(where + ": " + line + " repeats an item: a triplet names three different items")
		}
		f.Triplets = append(f.Triplets, t)
	}
	if len(f.Triplets) == 0 {
		return nil, errors.New(fileName + ": it has no answers")
	}
	return f, nil
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
