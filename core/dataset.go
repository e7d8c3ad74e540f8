package core

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Limits on what ReadCSV accepts by default; CSVOptions can lower or raise them.
const (
	DefaultMaxRows = 20000
	DefaultMaxCols = 1000
	DefaultMaxSize = 64 << 20 // bytes
)

// Dataset is a labelled table of numeric features.
type Dataset struct {
	Features  []string   // feature column names (from the header, or "x1", "x2", …)
	LabelName string     // the label column's name (from the header, or "label")
	X         *mat.Dense // n×d features, as read
	Labels    []int      // class index of each row, into Classes
	Classes   []string   // class names, in order of first appearance
	Lines     []int      // 1-based line in the file of each row, for messages and hovering
	Dropped   int        // rows dropped for missing values (CSVOptions.DropMissing)
	Header    bool       // whether the first line was taken as a header
	Delimiter rune       // the delimiter detected
}

// Rows returns the number of rows.
func (ds *Dataset) Rows() int { return len(ds.Labels) }

// ClassCounts returns the number of rows of each class.
func (ds *Dataset) ClassCounts() []int {
	c := make([]int, len(ds.Classes))
	for _, l := range ds.Labels {
		c[l]++
	}
	return c
}

// HeaderMode says whether the first line is a header.
type HeaderMode int

const (
	HeaderAuto HeaderMode = iota // detected: a header if some column is text on line 1 and a number on line 2
	HeaderYes
	HeaderNo
)

// CSVOptions control ReadCSV. The zero value reads the label from the last
// column, detects header and delimiter, and rejects missing values.
type CSVOptions struct {
	// Label names the label column: a header name, or a 0-based column
	// index; "" means the last column.
	Label       string
	Header      HeaderMode
	DropMissing bool // drop rows with a missing value instead of failing
	MaxRows     int  // default DefaultMaxRows
	MaxCols     int  // default DefaultMaxCols
}

// DataError is a problem with one place in an input file.
type DataError struct {
	Line   int    // 1-based line in the file, 0 if none
	Column int    // 1-based column, 0 if none
	Name   string // the column's name, if known
	Msg    string
}

func (e *DataError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d", e.Line)
	}
	if e.Column > 0 {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "column %d", e.Column)
		if e.Name != "" {
			fmt.Fprintf(&b, " (%q)", e.Name)
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// isMissing reports whether a cell stands for a missing value.
func isMissing(s string) bool {
	switch strings.ToLower(s) {
	case "", "na", "n/a", "?", "null", "none", "-":
		return true
	}
	return false
}

// parseNumber parses a cell; with a semicolon delimiter a decimal comma is
// accepted.
func parseNumber(s string, decimalComma bool) (float64, error) {
	if decimalComma && strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		s = strings.Replace(s, ",", ".", 1)
	}
	return strconv.ParseFloat(s, 64)
}

func looksNumeric(s string, decimalComma bool) bool {
	s = strings.TrimSpace(s)
	if isMissing(s) {
		return false
	}
	_, err := parseNumber(s, decimalComma)
	return err == nil
}

// detectDelimiter picks tab, then semicolon, then comma: the first that
// occurs the same non-zero number of times on each of the first few lines
// (outside quotes); comma if none does.
func detectDelimiter(data []byte) rune {
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
		if len(lines) == 8 {
			break
		}
	}
	count := func(l string, d rune) int {
		n, quoted := 0, false
		for _, r := range l {
			switch {
			case r == '"':
				quoted = !quoted
			case r == d && !quoted:
				n++
			}
		}
		return n
	}
	for _, d := range []rune{'\t', ';', ','} {
		c0 := -1
		ok := len(lines) > 0
		for _, l := range lines {
			c := count(l, d)
			if c == 0 || (c0 >= 0 && c != c0) {
				ok = false
				break
			}
			c0 = c
		}
		if ok {
			return d
		}
	}
	return ','
}

// looksLikeHeader says whether the first record is a header: some column is
// text on the first line and a number on the second (or, with one line
// only, some cell is text).
func looksLikeHeader(records [][]string, decimalComma bool) bool {
	if len(records) == 0 {
		return false
	}
	if len(records) == 1 {
		for _, c := range records[0] {
			if !looksNumeric(c, decimalComma) {
				return true
			}
		}
		return false
	}
	if len(records[1]) != len(records[0]) {
		return false
	}
	for j, c := range records[0] {
		if !looksNumeric(c, decimalComma) && looksNumeric(records[1][j], decimalComma) {
			return true
		}
	}
	return false
}

// Peek returns the first n non-blank records of a CSV file as text, split
// with the delimiter ReadCSV would detect (quotes read leniently), and
// whether ReadCSV would take the first as a header. It is for previews and
// the label choice, also of files that ReadCSV refuses.
func Peek(data []byte, n int) (records [][]string, header bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	delim := detectDelimiter(data)
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.LazyQuotes = true
	for len(records) < n {
		rec, err := cr.Read()
		if err != nil {
			break
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		records = append(records, rec)
	}
	return records, looksLikeHeader(records, delim == ';')
}

// ReadCSV reads a labelled numeric table. Every error names the line and
// column at fault and what was expected; it never panics on any input.
func ReadCSV(r io.Reader, opt CSVOptions) (*Dataset, error) {
	if opt.MaxRows <= 0 {
		opt.MaxRows = DefaultMaxRows
	}
	if opt.MaxCols <= 0 {
		opt.MaxCols = DefaultMaxCols
	}
	data, err := io.ReadAll(io.LimitReader(r, DefaultMaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading the file: %v", err)
	}
	if len(data) > DefaultMaxSize {
		return nil, fmt.Errorf("the file is larger than %d MiB", DefaultMaxSize>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("the file is empty: no rows")
	}
	delim := detectDelimiter(data)
	decimalComma := delim == ';'
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = false

	var records [][]string
	var lines []int
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
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
		records = append(records, rec)
		lines = append(lines, line)
		if len(records) > opt.MaxRows+1 {
			return nil, fmt.Errorf("more than %d rows: the limit is %d", opt.MaxRows, opt.MaxRows)
		}
	}
	if len(records) == 0 {
		return nil, errors.New("the file has no rows")
	}
	width := len(records[0])
	if width > opt.MaxCols+1 {
		return nil, &DataError{Line: lines[0], Msg: fmt.Sprintf("%d columns: the limit is %d feature columns and a label", width, opt.MaxCols)}
	}
	if width < 2 {
		return nil, &DataError{Line: lines[0], Msg: fmt.Sprintf("only one column (delimiter %q): expected at least one feature column and a label column", string(delim))}
	}

	header := opt.Header == HeaderYes || opt.Header == HeaderAuto && looksLikeHeader(records, decimalComma)
	names := make([]string, width)
	if header {
		copy(names, records[0])
		for j, n := range names {
			if n == "" {
				names[j] = fmt.Sprintf("column %d", j+1)
			}
		}
		records, lines = records[1:], lines[1:]
	} else {
		for j := range names {
			names[j] = fmt.Sprintf("x%d", j+1)
		}
		names[width-1] = "label"
	}
	if len(records) == 0 {
		return nil, errors.New("the file has a header but no data rows")
	}

	label := width - 1
	if opt.Label != "" {
		label = -1
		for j, n := range names {
			if header && n == opt.Label {
				label = j
				break
			}
		}
		if label < 0 && header {
			for j, n := range names {
				if strings.EqualFold(n, opt.Label) {
					label = j
					break
				}
			}
		}
		if label < 0 {
			if k, err := strconv.Atoi(opt.Label); err == nil {
				if k < 0 || k >= width {
					return nil, fmt.Errorf("label column index %d is out of range: the file has columns 0..%d", k, width-1)
				}
				label = k
			}
		}
		if label < 0 {
			return nil, fmt.Errorf("no column named %q: the columns are %s", opt.Label, strings.Join(quoteAll(names), ", "))
		}
	}

	ds := &Dataset{LabelName: names[label], Header: header, Delimiter: delim}
	for j, n := range names {
		if j != label {
			ds.Features = append(ds.Features, n)
		}
	}
	d := width - 1
	x := make([]float64, 0, len(records)*d)
	classIdx := map[string]int{}
	row := make([]float64, d)
rows:
	for i, rec := range records {
		if len(rec) != width {
			what := "header"
			if !header {
				what = "first row"
			}
			return nil, &DataError{Line: lines[i], Msg: fmt.Sprintf("%d fields, expected %d like the %s", len(rec), width, what)}
		}
		k := 0
		for j, cell := range rec {
			if j == label {
				continue
			}
			if isMissing(cell) {
				if opt.DropMissing {
					ds.Dropped++
					continue rows
				}
				return nil, &DataError{Line: lines[i], Column: j + 1, Name: names[j], Msg: fmt.Sprintf("missing value %q (drop such rows on request)", cell)}
			}
			v, err := parseNumber(cell, decimalComma)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return nil, &DataError{Line: lines[i], Column: j + 1, Name: names[j], Msg: fmt.Sprintf("%q is not a number", clip(cell, 40))}
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, &DataError{Line: lines[i], Column: j + 1, Name: names[j], Msg: fmt.Sprintf("%q is not a finite number", clip(cell, 40))}
			}
			row[k] = v
			k++
		}
		lab := rec[label]
		if isMissing(lab) {
			if opt.DropMissing {
				ds.Dropped++
				continue
			}
			return nil, &DataError{Line: lines[i], Column: label + 1, Name: names[label], Msg: "missing label"}
		}
		c, ok := classIdx[lab]
		if !ok {
			c = len(ds.Classes)
			classIdx[lab] = c
			ds.Classes = append(ds.Classes, lab)
		}
		x = append(x, row...)
		ds.Labels = append(ds.Labels, c)
		ds.Lines = append(ds.Lines, lines[i])
	}
	if len(ds.Labels) == 0 {
		return nil, fmt.Errorf("no rows left: all %d rows have a missing value", ds.Dropped)
	}
	if len(ds.Classes) < 2 {
		return nil, &DataError{Column: label + 1, Name: names[label], Msg: fmt.Sprintf("only one class (%q) in the label column: at least two are needed", clip(ds.Classes[0], 40))}
	}
	ds.X = mat.NewDense(len(ds.Labels), d, x)
	return ds, nil
}

func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(clip(v, 40))
	}
	return q
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// Standardizer maps each column to zero mean and unit variance, with the
// statistics of the rows it was fitted on.
type Standardizer struct {
	Mean, Std []float64
}

// FitStandardizer computes the mean and (population) standard deviation of
// the given rows of x; nil rows means all rows. A constant column gets
// Std = 1, so it maps to zeros instead of NaN.
func FitStandardizer(x mat.Matrix, rows []int) *Standardizer {
	n, d := x.Dims()
	if rows == nil {
		rows = make([]int, n)
		for i := range rows {
			rows[i] = i
		}
	}
	if len(rows) == 0 {
		panic("core: standardizer fitted on no rows")
	}
	s := &Standardizer{Mean: make([]float64, d), Std: make([]float64, d)}
	for j := 0; j < d; j++ {
		var m float64
		for _, i := range rows {
			m += x.At(i, j)
		}
		m /= float64(len(rows))
		var v float64
		for _, i := range rows {
			t := x.At(i, j) - m
			v += t * t
		}
		sd := math.Sqrt(v / float64(len(rows)))
		if !(sd > 1e-12*max(1, math.Abs(m))) {
			sd = 1
		}
		s.Mean[j], s.Std[j] = m, sd
	}
	return s
}

// Transform returns the standardized rows of x (all of them) as a new matrix.
func (s *Standardizer) Transform(x mat.Matrix) *mat.Dense {
	n, d := x.Dims()
	if d != len(s.Mean) {
		panic(fmt.Sprintf("core: standardizer for %d columns applied to %d", len(s.Mean), d))
	}
	dst := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			dst.Set(i, j, (x.At(i, j)-s.Mean[j])/s.Std[j])
		}
	}
	return dst
}

// StratifiedSplit splits row indices into a training and a test part, class
// by class, putting round(testFrac·count) rows of each class in the test
// part (at least one when the class has two or more rows and testFrac > 0).
// Both parts are sorted. The same seed gives the same split.
func StratifiedSplit(labels []int, testFrac float64, seed uint64) (train, test []int) {
	if testFrac < 0 || testFrac >= 1 {
		panic("core: test fraction outside [0, 1)")
	}
	byClass := map[int][]int{}
	var classes []int
	for i, l := range labels {
		if _, ok := byClass[l]; !ok {
			classes = append(classes, l)
		}
		byClass[l] = append(byClass[l], i)
	}
	slices.Sort(classes)
	rng := rand.New(rand.NewPCG(seed, 0x5eed5))
	for _, c := range classes {
		idx := byClass[c]
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		k := int(math.Round(testFrac * float64(len(idx))))
		if k == 0 && testFrac > 0 && len(idx) >= 2 {
			k = 1
		}
		if k >= len(idx) {
			k = len(idx) - 1
		}
		test = append(test, idx[:k]...)
		train = append(train, idx[k:]...)
	}
	slices.Sort(train)
	slices.Sort(test)
	return train, test
}

// SelectRows returns the given rows of x as a new matrix.
func SelectRows(x mat.Matrix, rows []int) *mat.Dense {
	if len(rows) == 0 {
		return &mat.Dense{}
	}
	_, d := x.Dims()
	out := mat.NewDense(len(rows), d, nil)
	for k, i := range rows {
		for j := 0; j < d; j++ {
			out.Set(k, j, x.At(i, j))
		}
	}
	return out
}
