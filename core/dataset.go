package core

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/spec"
)

// Limits on what ReadCSV accepts by default (spec's); CSVOptions can lower
// or raise the first two.
const (
	DefaultMaxRows = spec.MaxRows
	DefaultMaxCols = spec.MaxCols
	DefaultMaxSize = spec.MaxFileBytes // bytes
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
	Notes     []string   // what was assumed to read the file (an encoding, line endings)
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
	rs, err := readRecords(data, true, n)
	if err != nil {
		return nil, false
	}
	return rs.rows, looksLikeHeader(rs.rows, rs.delim == ';')
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
	data, err := readAll(r, "the file")
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) == 0 {
		return nil, errors.New("the file is empty: no rows")
	}
	rs, err := readRecords(data, false, opt.MaxRows+1)
	if errors.Is(err, errTooManyRecords) {
		return nil, fmt.Errorf("more than %d rows: the limit is %d", opt.MaxRows, opt.MaxRows)
	}
	if err != nil {
		return nil, err
	}
	if len(rs.rows) == 0 {
		return nil, errors.New("the file has no rows")
	}
	width := len(rs.rows[0])
	if width > opt.MaxCols+1 {
		return nil, &DataError{Line: rs.lines[0], Msg: fmt.Sprintf("%d columns: the limit is %d feature columns and a label", width, opt.MaxCols)}
	}
	if width < 2 {
		return nil, &DataError{Line: rs.lines[0], Msg: fmt.Sprintf("only one column (delimiter %q): expected at least one feature column and a label column", string(rs.delim))}
	}
	decimalComma := rs.delim == ';'
	header := opt.Header == HeaderYes || opt.Header == HeaderAuto && looksLikeHeader(rs.rows, decimalComma)
	names := columnNames(rs.rows[0], header)
	rows, lines := rs.rows, rs.lines
	if header {
		rows, lines = rows[1:], lines[1:]
	}
	if len(rows) == 0 {
		return nil, errors.New("the file has a header but no data rows")
	}
	label, err := labelColumn(names, header, opt.Label)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{LabelName: names[label], Header: header, Delimiter: rs.delim, Notes: rs.notes}
	for j, n := range names {
		if j != label {
			ds.Features = append(ds.Features, n)
		}
	}
	if err := ds.parseRows(rows, lines, names, label, decimalComma, opt.DropMissing); err != nil {
		return nil, err
	}
	return ds, nil
}

// columnNames names the columns: from the first record if it is a header
// (an empty name becomes "column j"), else x1, x2, … with "label" last.
func columnNames(first []string, header bool) []string {
	names := make([]string, len(first))
	for j := range names {
		switch {
		case header && first[j] != "":
			names[j] = first[j]
		case header:
			names[j] = fmt.Sprintf("column %d", j+1)
		default:
			names[j] = fmt.Sprintf("x%d", j+1)
		}
	}
	if !header {
		names[len(names)-1] = "label"
	}
	return names
}

// labelColumn finds the label column that want names: "" is the last; a
// header name (exactly, then ignoring case), or a 0-based index.
func labelColumn(names []string, header bool, want string) (int, error) {
	if want == "" {
		return len(names) - 1, nil
	}
	if header {
		if j := slices.Index(names, want); j >= 0 {
			return j, nil
		}
		if j := slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, want) }); j >= 0 {
			return j, nil
		}
	}
	if k, err := strconv.Atoi(want); err == nil {
		if k < 0 || k >= len(names) {
			return 0, fmt.Errorf("label column index %d is out of range: the file has columns 0..%d", k, len(names)-1)
		}
		return k, nil
	}
	return 0, fmt.Errorf("no column named %q: the columns are %s", want, strings.Join(quoteAll(names), ", "))
}

// parseRows fills ds.X, Labels, Classes, Lines and Dropped from the data
// records.
func (ds *Dataset) parseRows(rows [][]string, lines []int, names []string, label int, decimalComma, dropMissing bool) error {
	width := len(names)
	d := width - 1
	x := make([]float64, 0, len(rows)*d)
	classIdx := map[string]int{}
	row := make([]float64, d)
	what := "header"
	if !ds.Header {
		what = "first row"
	}
rows:
	for i, rec := range rows {
		if len(rec) != width {
			return &DataError{Line: lines[i], Msg: fmt.Sprintf("%d fields, expected %d like the %s", len(rec), width, what)}
		}
		k := 0
		for j, cell := range rec {
			if j == label {
				continue
			}
			if isMissing(cell) {
				if dropMissing {
					ds.Dropped++
					continue rows
				}
				return &DataError{Line: lines[i], Column: j + 1, Name: names[j], Msg: fmt.Sprintf("missing value %q (drop such rows on request)", cell)}
			}
			v, err := parseNumber(cell, decimalComma)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return &DataError{Line: lines[i], Column: j + 1, Name: names[j], Msg: fmt.Sprintf("%q is not a number", clip(cell, 40))}
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &DataError{Line: lines[i], Column: j + 1, Name: names[j], Msg: fmt.Sprintf("%q is not a finite number (the largest is about ±1.8e308)", clip(cell, 40))}
			}
			row[k] = v
			k++
		}
		lab := rec[label]
		if isMissing(lab) {
			if dropMissing {
				ds.Dropped++
				continue
			}
			return &DataError{Line: lines[i], Column: label + 1, Name: names[label], Msg: "missing label"}
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
		return fmt.Errorf("no rows left: all %d rows have a missing value", ds.Dropped)
	}
	if len(ds.Classes) < 2 {
		return &DataError{Column: label + 1, Name: names[label], Msg: fmt.Sprintf("only one class (%q) in the label column: at least two are needed", clip(ds.Classes[0], 40))}
	}
	ds.X = mat.NewDense(len(ds.Labels), d, x)
	return nil
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
	Mean, Std []float64 // of each column; Std is 1 for a constant column
	// Scale is the power of two at or just below each column's largest magnitude
	// on the fitted rows (1 for a column of zeros): Transform divides by it
	// first, exactly, so that no intermediate result overflows or
	// underflows, whatever the units.
	Scale []float64

	constant []bool
}

// constantRel is the spread, relative to a column's largest magnitude,
// below which the column counts as constant: a few hundred roundings of the
// mean, far below any measured variation.
const constantRel = 1e-12

// FitStandardizer computes the mean and (population) standard deviation of
// the given rows of x; nil rows means all rows. A constant column, one whose
// standard deviation is at most about 1e-12 times its largest magnitude
// (1e-12 times Scale, within a factor 2 of it), gets
// Std = 1 and maps to zeros (in every row). The decision and the standardized values do
// not depend on the column's units: the statistics are computed on the
// column divided by its largest magnitude, so any finite column, × 1e-300 or
// × 1e300, standardizes as the same column × 1 does.
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
	s := &Standardizer{Mean: make([]float64, d), Std: make([]float64, d), Scale: make([]float64, d), constant: make([]bool, d)}
	for j := 0; j < d; j++ {
		var c float64
		for _, i := range rows {
			c = max(c, math.Abs(x.At(i, j)))
		}
		if c == 0 || math.IsInf(c, 0) || math.IsNaN(c) {
			c = 1
		}
		// A power of two: dividing by it is exact, so for data that would
		// not overflow the statistics are bit for bit those of the column
		// itself (and iteration counts, which follow rounding, unchanged).
		// (2^(e−1) ≤ c < 2^e: 2^e itself overflows for c near 1.8e308.)
		_, e := math.Frexp(c)
		c = math.Ldexp(1, e-1)
		// μ' and σ' of the column divided by c, all in (−2, 2].
		var m float64
		for _, i := range rows {
			m += x.At(i, j) / c
		}
		m /= float64(len(rows))
		var v float64
		for _, i := range rows {
			t := x.At(i, j)/c - m
			v += t * t
		}
		sd := math.Sqrt(v / float64(len(rows)))
		s.Scale[j], s.Mean[j] = c, m*c
		if sd > constantRel {
			s.Std[j] = sd * c
		} else {
			s.Std[j], s.constant[j] = 1, true
		}
	}
	return s
}

// ConstantColumns returns the columns that were constant on the fitted
// rows (Std set to 1; they standardize to zeros there).
func (s *Standardizer) ConstantColumns() []int {
	var out []int
	for j, c := range s.constant {
		if c {
			out = append(out, j)
		}
	}
	return out
}

// transform standardizes the value v of column j:
//
//	(v − μ)/σ = (v/c − μ/c)/(σ/c),  c = Scale_j,
//
// and 0 for a column that was constant on the fitted rows (which say
// nothing about its other values).
func (s *Standardizer) transform(j int, v float64) float64 {
	if s.constant != nil && s.constant[j] {
		return 0
	}
	c := 1.0
	if s.Scale != nil && s.Scale[j] > 0 {
		c = s.Scale[j]
	}
	return (v/c - s.Mean[j]/c) / (s.Std[j] / c)
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
			dst.Set(i, j, s.transform(j, x.At(i, j)))
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
	rng := rand.New(rand.NewPCG(seed, 0x5eed5))
	for _, idx := range shuffledByClass(labels, nil, rng) {
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

// shuffledByClass groups rows (nil: all) by label, classes in ascending
// order, rows within a class in the given order, and shuffles each group
// with rng: the stratification StratifiedSplit and the CV folds share.
func shuffledByClass(labels, rows []int, rng *rand.Rand) [][]int {
	byClass := map[int][]int{}
	add := func(i int) { byClass[labels[i]] = append(byClass[labels[i]], i) }
	if rows == nil {
		for i := range labels {
			add(i)
		}
	} else {
		for _, i := range rows {
			add(i)
		}
	}
	var groups [][]int
	for _, c := range slices.Sorted(maps.Keys(byClass)) {
		idx := byClass[c]
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		groups = append(groups, idx)
	}
	return groups
}

// SelectLabels returns the labels of the given rows, in that order.
func SelectLabels(labels, rows []int) []int {
	out := make([]int, len(rows))
	for k, i := range rows {
		out[k] = labels[i]
	}
	return out
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
