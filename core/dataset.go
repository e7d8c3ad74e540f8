package core

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
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
	Features    []string   // feature column names (from the header, or "x1", "x2", …; "name=value" for a one-hot column's levels)
	LabelName   string     // the label column's name (from the header, or "label")
	X           *mat.Dense // n×d features, as read; NaN marks a missing value (MissingMean)
	Labels      []int      // class index of each row, into Classes
	Classes     []string   // class names, in order of first appearance
	Lines       []int      // 1-based line in the file of each row, for messages and hovering
	Records     []int      // 0-based index of each row among the file's data records (header excluded, before any row was dropped)
	Dropped     int        // rows dropped for missing values (MissingDrop), or for a missing label (MissingMean)
	Missing     int        // file cells missing in the features (NaN in X; a one-hot column's fills all its levels), MissingMean
	MissingRows int        // rows with such a cell
	Header      bool       // whether the first line was taken as a header
	Delimiter   rune       // the delimiter detected
	Notes       []string   // what was assumed to read the file (an encoding, line endings)
	Columns     []Column   // every column of the file, with what was made of it
	IDName      string     // the id column (CSVOptions.ID), if any
	IDs         []string   // each row's id, if there is an id column
	DroppedIDs  []string   // the ids of the rows dropped (Dropped), if there is an id column
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

// MissingPolicy says what ReadCSV does with a missing value: a cell that is
// empty or NA, N/A, ?, NaN, null, none or - (in any case).
type MissingPolicy int

const (
	MissingError MissingPolicy = iota // refuse the file, naming the first missing cell
	MissingDrop                       // drop the rows that have one
	// MissingMean keeps the rows and leaves NaN in X: Standardize maps a
	// missing value to 0, the mean of the column's observed values on the
	// rows it is fitted on (the training rows), so no test value leaks
	// into the fill. A row with a missing label is still dropped.
	MissingMean
)

// ParseMissing reads a missing-value policy by name: "" or "error",
// "drop", "mean".
func ParseMissing(s string) (MissingPolicy, error) {
	switch s {
	case "", "error":
		return MissingError, nil
	case "drop":
		return MissingDrop, nil
	case "mean":
		return MissingMean, nil
	}
	return 0, fmt.Errorf("missing values: %q is not a choice; expected error, drop or mean", s)
}

// MaxLevels is the most distinct values a column may have to be one-hot
// encoded.
const MaxLevels = spec.MaxLevels

// ColumnKind is what a column's cells are.
type ColumnKind string

const (
	Numeric ColumnKind = "number" // at least half its non-missing cells are numbers
	Text    ColumnKind = "text"   // more than half are not: ids, names, categories
	Empty   ColumnKind = "empty"  // every cell is missing
)

// ColumnRole is what ReadCSV made of a column.
type ColumnRole string

const (
	RoleFeature  ColumnRole = "feature"
	RoleLabel    ColumnRole = "label"
	RoleOneHot   ColumnRole = "one-hot"  // one 0/1 feature per distinct value (CSVOptions.OneHot)
	RoleID       ColumnRole = "id"       // the rows' ids (CSVOptions.ID)
	RoleExcluded ColumnRole = "excluded" // left out: on request (CSVOptions.Exclude), or text or empty
)

// Column describes one column of a file.
type Column struct {
	Name    string
	Kind    ColumnKind
	Levels  int // distinct non-missing values, counted up to MaxLevels+1
	Missing int // missing cells
	Role    ColumnRole
	// Auto says the role was not asked for: a text or empty column
	// excluded by itself (it is named in a notice).
	Auto bool
}

// CSVOptions control ReadCSV. The zero value reads the label from the last
// column, detects header and delimiter, excludes text columns, and rejects
// missing values.
type CSVOptions struct {
	// Label names the label column: a header name, or a 0-based column
	// index; "" means the last column.
	Label   string
	Header  HeaderMode
	Missing MissingPolicy
	// Exclude, OneHot and ID name columns as Label does. Excluded columns
	// are left out; a OneHot column (text or numbers, at most MaxLevels
	// distinct values) becomes one 0/1 feature per value; the ID column
	// (unique, never missing) gives Dataset.IDs and is not a feature. A
	// text column named in none of them is excluded, and named in a note.
	Exclude, OneHot []string
	ID              string
	MaxRows         int // default DefaultMaxRows
	MaxCols         int // default DefaultMaxCols
	// Check, if not nil, is called every few hundred rows while the file
	// is read; an error from it ends the read with that error (the page's
	// Stop, or another dataset chosen meanwhile).
	Check func() error
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
	case "", "na", "n/a", "?", "nan", "null", "none", "-":
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
	rs, err := readRecords(data, true, n, nil)
	if err != nil {
		return nil, false
	}
	return rs.rows, looksLikeHeader(rs.rows, rs.delim == ';')
}

// Inspect describes every column of a CSV file (its name, kind, distinct
// values, missing cells, and the role ReadCSV with opt gives it, or would
// have given it, as far as opt can be granted), read leniently as Peek
// reads it: it is for the column chooser, also of files that ReadCSV
// refuses. nil if no record can be read.
func Inspect(data []byte, opt CSVOptions) []Column {
	rs, err := readRecords(data, true, DefaultMaxRows+1, nil)
	if err != nil || len(rs.rows) == 0 {
		return nil
	}
	decimalComma := rs.delim == ';'
	header := opt.Header == HeaderYes || opt.Header == HeaderAuto && looksLikeHeader(rs.rows, decimalComma)
	rows := rs.rows
	if header {
		rows = rows[1:]
	}
	names := columnNames(rs.rows[0], header)
	cols, levels := inspect(rows, names, decimalComma)
	if label, _, err := chooseLabel(names, cols, header, opt.Label); err == nil {
		_ = assignRoles(cols, levels, names, header, label, opt) // the roles granted; the error is ReadCSV's to give
	}
	return cols
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
	rs, err := readRecords(data, false, opt.MaxRows+1, opt.Check)
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
	if opt.Check != nil {
		if err := opt.Check(); err != nil {
			return nil, err
		}
	}
	cols, levels := inspect(rows, names, decimalComma)
	label, guessed, err := chooseLabel(names, cols, header, opt.Label)
	if err != nil {
		return nil, err
	}
	if err := assignRoles(cols, levels, names, header, label, opt); err != nil {
		return nil, err
	}
	ds := &Dataset{LabelName: names[label], Header: header, Delimiter: rs.delim, Notes: rs.notes, Columns: cols}
	if guessed {
		ds.Notes = append(ds.Notes, fmt.Sprintf("the label is the column %q: it holds a few words, as a class name does, and the last column numbers with many values; choose another label column to change it", clip(names[label], 40)))
	}
	for j, c := range cols {
		switch c.Role {
		case RoleFeature:
			ds.Features = append(ds.Features, names[j])
		case RoleOneHot:
			for _, v := range levels[j] {
				ds.Features = append(ds.Features, names[j]+"="+v)
			}
		case RoleID:
			ds.IDName = names[j]
		}
	}
	if len(ds.Features) > opt.MaxCols {
		return nil, fmt.Errorf("%d feature columns (one-hot levels counted): the limit is %d", len(ds.Features), opt.MaxCols)
	}
	if err := ds.parseRows(rows, lines, names, label, levels, decimalComma, opt.Missing, opt.Check); err != nil {
		return nil, err
	}
	ds.Notes = append(ds.Notes, ds.notes()...)
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

// chooseLabel finds the label column that want names (as findColumn), or,
// when want is "", guesses it: the last column, unless the last holds
// numbers with more than MaxLevels distinct values (a measurement, not a
// class code) and another column holds a few words (2 to MaxLevels
// distinct texts, as a class name does: a class first, as in many UCI
// files, or a species among measurements). Among those, one whose header
// names a label (labelNames) wins, then the leftmost. guessed says the
// last was not taken. Without a header the label column is then named
// "label" and the last one x<n>; names and cols are renamed to match.
func chooseLabel(names []string, cols []Column, header bool, want string) (label int, guessed bool, err error) {
	if want != "" {
		label, err = findColumn(names, header, want, "label")
		return label, false, err
	}
	last := len(names) - 1
	if last < 1 || cols[last].Kind != Numeric || cols[last].Levels <= MaxLevels {
		return last, false, nil
	}
	label = -1
	for j, c := range cols[:last] {
		if c.Kind != Text || c.Levels < 2 || c.Levels > MaxLevels {
			continue
		}
		if label < 0 || (header && labelName(names[j]) && !labelName(names[label])) {
			label = j
		}
	}
	if label < 0 {
		return last, false, nil
	}
	if !header {
		names[label], names[last] = "label", fmt.Sprintf("x%d", last+1)
		cols[label].Name, cols[last].Name = names[label], names[last]
	}
	return label, true, nil
}

// labelNames are header names that say a column is the label.
var labelNames = []string{"class", "label", "species", "target", "category", "type", "kind", "variety", "diagnosis", "outcome", "group", "y"}

// labelName reports whether a header name says its column is the label.
func labelName(name string) bool {
	return slices.ContainsFunc(labelNames, func(n string) bool { return strings.EqualFold(strings.TrimSpace(name), n) })
}

// findColumn finds the column that want names: a header name (exactly,
// then ignoring case), or a 0-based index. what says which choice it is,
// for the message.
func findColumn(names []string, header bool, want, what string) (int, error) {
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
			return 0, fmt.Errorf("%s column index %d is out of range: the file has columns 0..%d", what, k, len(names)-1)
		}
		return k, nil
	}
	return 0, fmt.Errorf("%s column: no column named %q; the columns are %s", what, want, strings.Join(quoteAll(names), ", "))
}

// inspect classifies every column of the data records: its kind, its
// distinct values (the first MaxLevels+1, in order of appearance) and its
// missing cells. A record of the wrong width counts for the columns it has
// (parseRows refuses it).
func inspect(rows [][]string, names []string, decimalComma bool) ([]Column, [][]string) {
	cols := make([]Column, len(names))
	levels := make([][]string, len(names))
	for j := range cols {
		var numbers, texts, missing int
		seen := map[string]bool{}
		for _, rec := range rows {
			if j >= len(rec) {
				continue
			}
			c := rec[j]
			if isMissing(c) {
				missing++
				continue
			}
			if _, err := parseNumber(c, decimalComma); err == nil || errors.Is(err, strconv.ErrRange) {
				numbers++
			} else {
				texts++
			}
			if !seen[c] && len(levels[j]) <= MaxLevels {
				seen[c] = true
				levels[j] = append(levels[j], c)
			}
		}
		kind := Numeric
		switch {
		case numbers+texts == 0:
			kind = Empty
		case texts > numbers:
			kind = Text
		}
		cols[j] = Column{Name: names[j], Kind: kind, Levels: len(levels[j]), Missing: missing}
	}
	return cols, levels
}

// assignRoles sets each column's role from the options: the label, the id,
// the excluded and the one-hot columns as asked; any other text or empty
// column excluded by itself (Auto), the rest features. A request it cannot
// grant is skipped, every column still gets a role (for the column
// chooser), and the first such request is the error.
func assignRoles(cols []Column, levels [][]string, names []string, header bool, label int, opt CSVOptions) error {
	cols[label].Role = RoleLabel
	set := func(want, what string, role ColumnRole) error {
		j, err := findColumn(names, header, want, what)
		if err != nil {
			return err
		}
		switch r := cols[j].Role; {
		case r == RoleLabel:
			return fmt.Errorf("%q is the label column: it cannot also be the %s column", clip(names[j], 40), what)
		case r != "" && r != role:
			return fmt.Errorf("%q is asked to be both %s and %s", clip(names[j], 40), r, role)
		}
		if role == RoleOneHot {
			switch {
			case cols[j].Kind == Empty:
				return fmt.Errorf("%q has no values to one-hot encode: every cell is missing", clip(names[j], 40))
			case cols[j].Levels > MaxLevels:
				return fmt.Errorf("%q has more than %d distinct values: one-hot encoding takes at most %d; exclude it instead", clip(names[j], 40), MaxLevels, MaxLevels)
			}
		}
		cols[j].Role = role
		return nil
	}
	var first error
	ask := func(want, what string, role ColumnRole) {
		if err := set(want, what, role); err != nil && first == nil {
			first = err
		}
	}
	if opt.ID != "" {
		ask(opt.ID, "id", RoleID)
	}
	for _, w := range opt.Exclude {
		ask(w, "excluded", RoleExcluded)
	}
	for _, w := range opt.OneHot {
		ask(w, "one-hot", RoleOneHot)
	}
	features := 0
	for j := range cols {
		switch {
		case cols[j].Role != "":
		case cols[j].Kind == Numeric:
			cols[j].Role = RoleFeature
		default:
			cols[j].Role, cols[j].Auto = RoleExcluded, true
		}
		if r := cols[j].Role; r == RoleFeature || r == RoleOneHot {
			features++
		}
	}
	if first != nil {
		return first
	}
	if features == 0 {
		var text []string
		for j, c := range cols {
			if c.Auto && c.Kind == Text {
				text = append(text, strconv.Quote(clip(names[j], 40)))
			}
		}
		msg := "no feature column is left"
		if len(text) > 0 {
			msg += ": the text columns " + strings.Join(text, ", ") + " are not numbers; one-hot encode one with few distinct values, or choose another label column"
		} else {
			msg += ": include a column, or choose another label column"
		}
		return errors.New(msg)
	}
	return nil
}

// parseRows fills ds.X, Labels, Classes, Lines, Records, IDs, Dropped and
// Missing from the data records, by the columns' roles.
func (ds *Dataset) parseRows(rows [][]string, lines []int, names []string, label int, levels [][]string, decimalComma bool, missing MissingPolicy, check func() error) error {
	width := len(names)
	d := len(ds.Features)
	cols := ds.Columns
	x := make([]float64, 0, len(rows)*d)
	classIdx := map[string]int{}
	idLine := map[string]int{}
	row := make([]float64, d)
	what := "header"
	if !ds.Header {
		what = "first row"
	}
	missingRows := 0
	idCol := slices.IndexFunc(cols, func(c Column) bool { return c.Role == RoleID })
	for i, rec := range rows {
		if check != nil && i%checkEvery == checkEvery-1 {
			if err := check(); err != nil {
				return err
			}
		}
		if len(rec) != width {
			return &DataError{Line: lines[i], Msg: fmt.Sprintf("%d fields, expected %d like the %s", len(rec), width, what)}
		}
		gaps, drop, err := ds.parseFeatures(row, rec, lines[i], names, levels, decimalComma, missing)
		if err != nil {
			return err
		}
		if drop {
			ds.drop(rec, idCol)
			continue
		}
		lab := rec[label]
		if isMissing(lab) {
			if missing != MissingError {
				ds.drop(rec, idCol)
				continue
			}
			return &DataError{Line: lines[i], Column: label + 1, Name: names[label], Msg: "missing label (drop such rows on request)"}
		}
		if j := idCol; j >= 0 {
			id := rec[j]
			if err := checkID(id, idLine, lines[i], j, names[j]); err != nil {
				return err
			}
			idLine[id] = lines[i]
			ds.IDs = append(ds.IDs, id)
		}
		c, ok := classIdx[lab]
		if !ok {
			c = len(ds.Classes)
			classIdx[lab] = c
			ds.Classes = append(ds.Classes, lab)
		}
		if gaps > 0 {
			ds.Missing += gaps
			missingRows++
		}
		x = append(x, row...)
		ds.Labels = append(ds.Labels, c)
		ds.Lines = append(ds.Lines, lines[i])
		ds.Records = append(ds.Records, i)
	}
	if len(ds.Labels) == 0 {
		return fmt.Errorf("no rows left: all %d rows have a missing value", ds.Dropped)
	}
	if len(ds.Classes) < 2 {
		return &DataError{Column: label + 1, Name: names[label], Msg: fmt.Sprintf("only one class (%q) in the label column: at least two are needed", clip(ds.Classes[0], 40))}
	}
	ds.MissingRows = missingRows
	ds.X = mat.NewDense(len(ds.Labels), d, x)
	return nil
}

// parseFeatures reads record rec's feature cells (line is its line) into
// row: numbers as they are, a one-hot column as one 0/1 value per level, a
// missing cell as NaN (filled later) unless missing says to drop the row
// (drop) or to refuse the file (err). gaps counts the cells left missing.
func (ds *Dataset) parseFeatures(row []float64, rec []string, line int, names []string, levels [][]string, decimalComma bool, missing MissingPolicy) (gaps int, drop bool, err error) {
	k := 0
	for j, cell := range rec {
		role := ds.Columns[j].Role
		if role != RoleFeature && role != RoleOneHot {
			continue
		}
		n := 1
		if role == RoleOneHot {
			n = len(levels[j])
		}
		if isMissing(cell) {
			switch missing {
			case MissingDrop:
				return 0, true, nil
			case MissingError:
				return 0, false, &DataError{Line: line, Column: j + 1, Name: names[j], Msg: fmt.Sprintf("missing value %q (drop such rows, or fill them with the training mean, on request)", cell)}
			}
			for t := range n {
				row[k+t] = math.NaN()
			}
			k += n
			gaps++
			continue
		}
		if role == RoleOneHot {
			for t, v := range levels[j] {
				row[k+t] = 0
				if v == cell {
					row[k+t] = 1
				}
			}
			k += n
			continue
		}
		v, err := parseNumber(cell, decimalComma)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, false, &DataError{Line: line, Column: j + 1, Name: names[j], Msg: fmt.Sprintf("%q is not a number (the column is read as numbers: fix the cell, or exclude the column)", clip(cell, 40))}
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false, &DataError{Line: line, Column: j + 1, Name: names[j], Msg: fmt.Sprintf("%q is not a finite number (the largest is about ±1.8e308)", clip(cell, 40))}
		}
		row[k] = v
		k++
	}
	return gaps, false, nil
}

// checkID refuses a missing id, or one seen before (idLine: the line of
// each id so far), in column j (1-based j+1, called name) on line.
func checkID(id string, idLine map[string]int, line, j int, name string) error {
	if isMissing(id) {
		return &DataError{Line: line, Column: j + 1, Name: name, Msg: fmt.Sprintf("missing id %q: every row needs one in the id column", id)}
	}
	if l, ok := idLine[id]; ok {
		return &DataError{Line: line, Column: j + 1, Name: name, Msg: fmt.Sprintf("id %q repeats the one on line %d: ids must be unique", clip(id, 40), l)}
	}
	return nil
}

// notes says in words what was made of the file: the columns left out by
// themselves, the rows dropped, the missing values filled, a column that
// only counts rows.
func (ds *Dataset) notes() []string {
	var out, text, empty []string
	for _, c := range ds.Columns {
		switch {
		case c.Auto && c.Kind == Text:
			text = append(text, strconv.Quote(clip(c.Name, 40)))
		case c.Auto && c.Kind == Empty:
			empty = append(empty, strconv.Quote(clip(c.Name, 40)))
		}
	}
	if len(text) > 0 {
		out = append(out, fmt.Sprintf("%s (%s) %s left out: not numbers (a column with few distinct values can be one-hot encoded instead)",
			plural(len(text), "text column", "text columns"), strings.Join(text, ", "), pick(len(text), "was", "were")))
	}
	if len(empty) > 0 {
		out = append(out, fmt.Sprintf("%s (%s) %s left out: no values", plural(len(empty), "column", "columns"), strings.Join(empty, ", "), pick(len(empty), "was", "were")))
	}
	if ds.Dropped > 0 {
		out = append(out, fmt.Sprintf("%s with missing values %s dropped", plural(ds.Dropped, "row", "rows"), pick(ds.Dropped, "was", "were")))
	}
	if ds.Missing > 0 {
		out = append(out, fmt.Sprintf("%s in %s %s filled with the training mean of %s column", plural(ds.Missing, "missing value", "missing values"),
			plural(ds.MissingRows, "row", "rows"), pick(ds.Missing, "is", "are"), pick(ds.Missing, "its", "their")))
	}
	for j, c := range ds.Columns {
		if c.Role == RoleFeature && ds.countsRows(j) {
			out = append(out, fmt.Sprintf("column %q counts the rows (1, 2, 3, …): it is a feature now; exclude it unless it means something", clip(c.Name, 40)))
		}
	}
	return out
}

// countsRows says whether feature column j is 1, 2, 3, … (or 0, 1, 2, …)
// down the rows read: a row number, not a measurement.
func (ds *Dataset) countsRows(j int) bool {
	k := 0
	for _, c := range ds.Columns[:j] {
		switch c.Role {
		case RoleFeature:
			k++
		case RoleOneHot:
			k += c.Levels
		}
	}
	n := ds.Rows()
	if n < 3 {
		return false
	}
	first := ds.X.At(0, k)
	if first != 0 && first != 1 {
		return false
	}
	for i := range n {
		if ds.X.At(i, k) != first+float64(ds.Records[i]) {
			return false
		}
	}
	return true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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

// drop counts a record dropped for a missing value and keeps its id (the
// cell in column idCol, if there is one and it is not missing itself), so
// that a triplet file naming it can be told it was dropped.
func (ds *Dataset) drop(rec []string, idCol int) {
	ds.Dropped++
	if idCol >= 0 && idCol < len(rec) && !isMissing(rec[idCol]) {
		ds.DroppedIDs = append(ds.DroppedIDs, rec[idCol])
	}
}
