package core

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
)

var errTooManyRecords = errors.New("too many records")

// records is a delimited text file split into its non-blank records, with
// the 1-based line of each and what was assumed to read it.
type records struct {
	rows  [][]string
	lines []int
	delim rune
	notes []string // what was assumed, for the user: an encoding, line endings
}

// readAll reads at most DefaultMaxSize bytes; what names the file in
// messages ("the file", "the triplet file").
func readAll(r io.Reader, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, DefaultMaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", what, err)
	}
	if len(data) > DefaultMaxSize {
		return nil, fmt.Errorf("%s is larger than %d MiB", what, DefaultMaxSize>>20)
	}
	return data, nil
}

// decodeText returns data as UTF-8 text with "\n" line ends: a UTF-8 byte
// order mark is dropped, UTF-16 with a byte order mark is decoded, and a
// file whose lines end in a lone "\r" (old Mac) has them read as line
// breaks. Each such assumption is returned as a note. Text it cannot read
// (UTF-16 without a byte order mark, binary data) is refused with the
// reason.
func decodeText(data []byte) ([]byte, []string, error) {
	var notes []string
	switch {
	case bytes.HasPrefix(data, []byte{0xef, 0xbb, 0xbf}):
		data = data[3:]
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}), bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		le := data[0] == 0xff
		body := data[2:]
		if len(body)%2 == 1 {
			return nil, nil, errors.New("the file starts as UTF-16 but has an odd number of bytes: it is truncated or not UTF-16")
		}
		u := make([]uint16, len(body)/2)
		for i := range u {
			a, b := uint16(body[2*i]), uint16(body[2*i+1])
			if le {
				u[i] = a | b<<8
			} else {
				u[i] = a<<8 | b
			}
		}
		data = []byte(string(utf16.Decode(u)))
		if le {
			notes = append(notes, "read as UTF-16 (little-endian), from its byte order mark")
		} else {
			notes = append(notes, "read as UTF-16 (big-endian), from its byte order mark")
		}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		// Every other byte zero in the first line: UTF-16 without a mark.
		head := data[:min(len(data), 64)]
		zeros := bytes.Count(head, []byte{0})
		if zeros*3 >= len(head) {
			return nil, nil, errors.New("the file looks like UTF-16 without a byte order mark: save it as UTF-8 (or UTF-16 with a byte order mark)")
		}
		return nil, nil, fmt.Errorf("the file has a NUL byte at offset %d: expected a text file (CSV), not binary data", i)
	}
	if bytes.IndexByte(data, '\n') < 0 && bytes.IndexByte(data, '\r') >= 0 {
		data = bytes.ReplaceAll(data, []byte{'\r'}, []byte{'\n'})
		notes = append(notes, `lines end in "\r" alone (old Mac line endings): read as line breaks`)
	}
	return data, notes, nil
}

// checkEvery is how many rows a reader goes between two calls of
// CSVOptions.Check.
const checkEvery = 256

// readRecords decodes data (decodeText), detects its delimiter and splits
// it into trimmed records, skipping blank lines. lenient reads stray quotes
// as text and stops quietly at the first malformed line (for previews);
// otherwise a malformed line is an error naming it. maxRecords > 0 stops
// with errTooManyRecords as soon as there are more records than that;
// check, if not nil, is called every checkEvery records, and its error
// ends the read.
func readRecords(data []byte, lenient bool, maxRecords int, check func() error) (*records, error) {
	data, notes, err := decodeText(data)
	if err != nil {
		return nil, err
	}
	rs := &records{delim: detectDelimiter(data), notes: notes}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = rs.delim
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.LazyQuotes = lenient
	for n := 1; ; n++ {
		if check != nil && n%checkEvery == 0 {
			if err := check(); err != nil {
				return nil, err
			}
		}
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			if lenient {
				break
			}
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &DataError{Line: pe.Line, Column: pe.Column, Msg: pe.Err.Error()}
			}
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // blank line
		}
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		rs.rows = append(rs.rows, rec)
		rs.lines = append(rs.lines, line)
		if maxRecords > 0 && len(rs.rows) > maxRecords {
			if lenient {
				rs.rows, rs.lines = rs.rows[:maxRecords], rs.lines[:maxRecords]
				break
			}
			return nil, errTooManyRecords
		}
	}
	return rs, nil
}
