package core

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func readCSV(s string, o CSVOptions) (*Dataset, error) { return ReadCSV(strings.NewReader(s), o) }

// mustFail checks that reading s fails with a message containing every part.
func mustFail(t *testing.T, s string, o CSVOptions, parts ...string) {
	t.Helper()
	_, err := readCSV(s, o)
	if err == nil {
		t.Fatalf("no error for %q", s)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not mention %q", err, p)
		}
	}
}

func TestCSVNonNumericCell(t *testing.T) {
	mustFail(t, "a,b,class\n1,2,x\n3,oops,y\n", CSVOptions{}, "line 3", "column 2", `"b"`, `"oops" is not a number`)
}

func TestCSVRaggedRow(t *testing.T) {
	mustFail(t, "a,b,class\n1,2,x\n3,4\n5,6,y\n", CSVOptions{}, "line 3", "2 fields, expected 3")
}

func TestCSVMissingValue(t *testing.T) {
	mustFail(t, "a,b,class\n1,2,x\n3,,y\n5,6,y\n", CSVOptions{}, "line 3", "column 2", "missing value")
	mustFail(t, "a,b,class\n1,2,x\n3,?,y\n5,6,y\n", CSVOptions{}, "line 3", "missing value")
	mustFail(t, "a,b,class\n1,2,x\n3,4,\n5,6,y\n", CSVOptions{}, "line 3", "column 3", "missing label")
}

func TestCSVDropMissing(t *testing.T) {
	ds, err := readCSV("a,b,class\n1,2,x\n3,NA,y\n5,6,y\n7,8,x\n", CSVOptions{Missing: MissingDrop})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Dropped != 1 || ds.Rows() != 3 || !slices.Equal(ds.Lines, []int{2, 4, 5}) {
		t.Fatalf("dropped %d, rows %d, lines %v", ds.Dropped, ds.Rows(), ds.Lines)
	}
	mustFail(t, "a,b,class\n1,NA,x\nNA,2,y\n", CSVOptions{Missing: MissingDrop}, "no rows left")
}

func TestCSVNoRows(t *testing.T) {
	mustFail(t, "", CSVOptions{}, "empty")
	mustFail(t, "\n\n  \n", CSVOptions{}, "empty")
	mustFail(t, "a,b,class\n", CSVOptions{}, "no data rows")
}

func TestCSVOneClass(t *testing.T) {
	mustFail(t, "a,b,class\n1,2,x\n3,4,x\n", CSVOptions{}, "only one class", `"x"`, "column 3")
}

func TestCSVNaNInf(t *testing.T) {
	mustFail(t, "a,b,class\n1,2,x\n3,NaN,y\n", CSVOptions{}, "line 3", "column 2", "missing value")
	mustFail(t, "a,b,class\n1,2,x\n3,-Inf,y\n", CSVOptions{}, "line 3", "not a finite number")
	mustFail(t, "a,b,class\n1,2,x\n3,1e999,y\n", CSVOptions{}, "line 3", "not a finite number")
}

func TestCSVLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,class\n")
	for i := range 12 {
		b.WriteString("1," + string(rune('a'+i%2)) + "\n")
	}
	mustFail(t, b.String(), CSVOptions{MaxRows: 10}, "more than 10 rows")
	mustFail(t, "a,b,c,d,class\n1,2,3,4,x\n", CSVOptions{MaxCols: 3}, "5 columns", "limit is 3")
}

func TestCSVLabelColumn(t *testing.T) {
	mustFail(t, "a,b,class\n1,2,x\n3,4,y\n", CSVOptions{Label: "kind"}, `no column named "kind"`, `"a", "b", "class"`)
	mustFail(t, "a,b,class\n1,2,x\n3,4,y\n", CSVOptions{Label: "7"}, "index 7 is out of range")
	ds, err := readCSV("kind,a,b\nx,1,2\ny,3,4\n", CSVOptions{Label: "KIND"})
	if err != nil {
		t.Fatal(err)
	}
	if ds.LabelName != "kind" || !slices.Equal(ds.Features, []string{"a", "b"}) || ds.X.At(1, 1) != 4 {
		t.Fatalf("label by name: %+v", ds)
	}
	ds, err = readCSV("x,1,2\ny,3,4\n", CSVOptions{Label: "0"})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Header || !slices.Equal(ds.Classes, []string{"x", "y"}) || ds.X.At(0, 0) != 1 {
		t.Fatalf("label by index: %+v", ds)
	}
}

// A file like Palmer penguins' (an id, the species, the island, numbers,
// the sex with NA, a mass last): with no label asked for, the label is the
// column whose name says so among those of a few words, not the mass, and
// without such a name the leftmost of them.
func TestCSVLabelGuessedAmongWords(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,island,species,bill,sex,mass\n")
	for i := 0; i < 40; i++ {
		sex := []string{"male", "female", "NA"}[i%3]
		fmt.Fprintf(&b, "P%03d,%s,%s,%d.5,%s,%d\n", i, []string{"Biscoe", "Dream", "Torgersen"}[i%3], []string{"Adelie", "Gentoo", "Chinstrap"}[i%3], 30+i, sex, 3000+25*i)
	}
	ds, err := readCSV(b.String(), CSVOptions{Missing: MissingDrop})
	if err != nil {
		t.Fatal(err)
	}
	if ds.LabelName != "species" || !slices.Contains(ds.Features, "mass") {
		t.Errorf("label %q, features %q", ds.LabelName, ds.Features)
	}
	plain := strings.Replace(b.String(), "species", "kinds", 1)
	if ds, err = readCSV(plain, CSVOptions{Missing: MissingDrop}); err != nil || ds.LabelName != "island" {
		t.Errorf("without a label's name: label %q (%v), want the leftmost column of a few words", ds.LabelName, err)
	}
}

// With no label asked for, a first column of a few words is taken as the
// label when the last holds numbers with many values (a class name first,
// as in UCI's letter-recognition.data), and a note says so; with and
// without a header. A last column of class codes (few values) stays the
// label, and an explicit choice is obeyed.
func TestCSVLabelGuessed(t *testing.T) {
	var hdr, bare, codes strings.Builder
	hdr.WriteString("species,a,b\n")
	for i := 0; i < 2*MaxLevels; i++ {
		row := fmt.Sprintf("%s,%d,%d.5\n", []string{"setosa", "virginica"}[i%2], i%3, i)
		hdr.WriteString(row)
		bare.WriteString(row)
		codes.WriteString(fmt.Sprintf("%s,%d.5,%d\n", []string{"p", "q"}[i%2], i, i%3))
	}
	ds, err := readCSV(hdr.String(), CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.LabelName != "species" || !slices.Equal(ds.Features, []string{"a", "b"}) || !slices.Equal(ds.Classes, []string{"setosa", "virginica"}) ||
		!strings.Contains(strings.Join(ds.Notes, "; "), `the label is the column "species"`) {
		t.Errorf("with a header: label %q, features %q, classes %q, notes %q", ds.LabelName, ds.Features, ds.Classes, ds.Notes)
	}
	ds, err = readCSV(bare.String(), CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Header || ds.LabelName != "label" || !slices.Equal(ds.Features, []string{"x2", "x3"}) || ds.X.At(1, 1) != 1.5 {
		t.Errorf("without a header: label %q, features %q", ds.LabelName, ds.Features)
	}
	if cols := Inspect([]byte(bare.String()), CSVOptions{}); cols[0].Name != "label" || cols[0].Role != RoleLabel || cols[2].Role != RoleFeature {
		t.Errorf("Inspect: %+v", cols)
	}
	ds, err = readCSV(codes.String(), CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.LabelName != "label" || len(ds.Classes) != 3 || len(ds.Features) != 1 {
		t.Errorf("class codes last: label %q, classes %q, features %q", ds.LabelName, ds.Classes, ds.Features)
	}
	ds, err = readCSV(hdr.String(), CSVOptions{Label: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if ds.LabelName != "a" {
		t.Errorf("asked for a: label %q", ds.LabelName)
	}
}

func TestCSVQuotingError(t *testing.T) {
	mustFail(t, "a,b,class\n1,2,x\n3,\"4,y\n", CSVOptions{}, "line 3")
}

// Delimiters, BOM, quotes, decimal commas and header detection.
func TestCSVFormats(t *testing.T) {
	cases := []struct {
		name, in string
		header   bool
		delim    rune
	}{
		{"comma with header", "a,b,class\n1,2.5,x\n3,4,y\n", true, ','},
		{"no header", "1,2.5,x\n3,4,y\n", false, ','},
		{"semicolon decimal comma", "a;b;class\n1;2,5;x\n3;4;y\n", true, ';'},
		{"tab", "a\tb\tclass\n1\t2.5\tx\n3\t4\ty\n", true, '\t'},
		{"BOM and CRLF", "\ufeffa,b,class\r\n1,2.5,x\r\n3,4,y\r\n", true, ','},
		{"quoted", "\"a\",\"b\",\"class\"\n\"1\",\"2.5\",\"x, the first\"\n3,4,y\n", true, ','},
		{"numeric labels", "a,b,class\n1,2.5,0\n3,4,1\n", true, ','},
	}
	for _, c := range cases {
		ds, err := readCSV(c.in, CSVOptions{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if ds.Header != c.header || ds.Delimiter != c.delim || ds.Rows() != 2 || ds.X.At(0, 1) != 2.5 || len(ds.Classes) != 2 {
			t.Errorf("%s: header %v delim %q rows %d x01 %v classes %v", c.name, ds.Header, ds.Delimiter, ds.Rows(), ds.X.At(0, 1), ds.Classes)
		}
	}
}

func TestBuiltInDatasets(t *testing.T) {
	for name, want := range map[string][3]int{"iris.csv": {150, 4, 3}, "wine.csv": {178, 13, 3}, "sonar.csv": {208, 60, 2}, "ionosphere.csv": {351, 34, 2}} {
		_, ds := loadStd(t, name)
		if ds.Rows() != want[0] || len(ds.Features) != want[1] || len(ds.Classes) != want[2] {
			t.Errorf("%s: %d rows, %d features, %d classes; want %v", name, ds.Rows(), len(ds.Features), len(ds.Classes), want)
		}
	}
}

// A constant column standardizes to zeros, not NaN; the others to mean 0
// and standard deviation 1 on the fitted rows.
func TestStandardizer(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{1, 5, 2, 5, 3, 5, 10, 5})
	s := FitStandardizer(x, []int{0, 1, 2})
	y := s.Transform(x)
	for i := 0; i < 4; i++ {
		if v := y.At(i, 1); v != 0 {
			t.Fatalf("constant column gives %v", v)
		}
	}
	if !relClose(s.Mean[0], 2, 1e-15) || !relClose(s.Std[0], math.Sqrt(2.0/3), 1e-15) {
		t.Fatalf("mean %v std %v", s.Mean, s.Std)
	}
}

func TestStratifiedSplit(t *testing.T) {
	_, ds := loadStd(t, "iris.csv")
	tr, te := StratifiedSplit(ds.Labels, 0.15, 7)
	tr2, te2 := StratifiedSplit(ds.Labels, 0.15, 7)
	if !slices.Equal(tr, tr2) || !slices.Equal(te, te2) {
		t.Fatal("same seed, different split")
	}
	if len(te) != 24 || len(tr) != 126 { // round(0.15·50) = 8 per class
		t.Fatalf("split %d/%d", len(tr), len(te))
	}
	count := map[int]int{}
	for _, i := range te {
		count[ds.Labels[i]]++
	}
	for c, k := range count {
		if k != 8 {
			t.Errorf("class %d has %d test rows", c, k)
		}
	}
	_, te3 := StratifiedSplit(ds.Labels, 0.15, 8)
	if slices.Equal(te, te3) {
		t.Error("different seeds gave the same split")
	}
}

func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{
		"a,b,class\n1,2,x\n3,4,y\n", "1;2,5;x\n3;4;y\n", "\ufeff\"a\",b\n\"1\"\"\",2\n", "a\tb\n1\t2\n",
		"a,b,class\n1,2,x\n3,4\n", "", "?,NA,\n", "x,1e999,NaN\n",
	} {
		f.Add(s, "", uint8(0), "")
	}
	f.Add("id,a,kind,class\nP1,1,u,x\nP2,NA,v,y\nP3,3,,x\n", "class", uint8(2), "kind")
	f.Fuzz(func(t *testing.T, s, label string, missing uint8, oneHot string) {
		policy := MissingPolicy(missing % 3)
		o := CSVOptions{Label: label, Missing: policy, MaxRows: 1000}
		if oneHot != "" {
			o.OneHot = []string{oneHot}
		}
		ds, err := ReadCSV(strings.NewReader(s), o)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		n, d := ds.X.Dims()
		if n != len(ds.Labels) || n != len(ds.Lines) || n != len(ds.Records) || d != len(ds.Features) || len(ds.Classes) < 2 {
			t.Fatalf("inconsistent dataset: %d×%d, %d labels, %d records, %d features", n, d, len(ds.Labels), len(ds.Records), len(ds.Features))
		}
		nan := 0
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				v := ds.X.At(i, j)
				if math.IsInf(v, 0) {
					t.Fatalf("infinite value accepted")
				}
				if math.IsNaN(v) {
					nan++
				}
			}
		}
		// NaN marks a missing value, and only when asked to keep them.
		if policy != MissingMean && nan > 0 || nan < ds.Missing || ds.Missing > 0 && ds.MissingRows == 0 {
			t.Fatalf("%d NaN in X, %d missing cells in %d rows (policy %d)", nan, ds.Missing, ds.MissingRows, policy)
		}
	})
}

// Peek splits and decides "header" as ReadCSV does, also for files that
// ReadCSV refuses.
func TestPeek(t *testing.T) {
	for _, c := range []struct {
		csv    string
		header bool
		first  string
	}{
		{"a,b,y\n1,2,p\n", true, "a"},
		{"1,2,p\n3,4,q\n", false, "1"},
		{"p,1,2\nq,3,4\n", false, "p"},              // text in both rows: not a header
		{"\xef\xbb\xbfh;w;k\n1,5;2;x\n", true, "h"}, // BOM, semicolons, decimal comma
		{"kind,h\ncat,1\ndog,\"3\n", true, "kind"},  // broken quoting: still previewed
		{"a\tb\ty\n\n1\t2\tp\n", true, "a"},         // tabs, a blank line
	} {
		recs, header := Peek([]byte(c.csv), 5)
		if len(recs) == 0 || header != c.header || recs[0][0] != c.first {
			t.Errorf("%q: %q, header %v", c.csv, recs, header)
		}
		if ds, err := ReadCSV(strings.NewReader(c.csv), CSVOptions{}); err == nil && ds.Header != header {
			t.Errorf("%q: Peek says header %v, ReadCSV %v", c.csv, header, ds.Header)
		}
	}
	if recs, _ := Peek([]byte("a,b\n1,2\n3,4\n5,6\n"), 2); len(recs) != 2 {
		t.Errorf("n = 2: %d records", len(recs))
	}
}

// messy is a file as people have them: an id column, a name, a category
// with three values, a row counter, and missing values written four ways
// (lines 3, 4, 5 and 6 of the file).
const messy = `row,id,name,kind,a,b,class
1,P020,Ann,u,1.0,10,x
2,P021,Bob,v,NA,20,y
3,P022,Cy,w,3.0,?,x
4,P023,Di,u,,40,y
5,P024,Ed,,5.0,NaN,x
6,P025,Flo,v,6.0,60,y
`

func TestCSVTextColumnsExcluded(t *testing.T) {
	mustFail(t, messy, CSVOptions{}, "line 3", "column 5", `"a"`, "missing value")
	ds, err := readCSV(messy, CSVOptions{Missing: MissingDrop})
	if err != nil {
		t.Fatal(err)
	}
	// The three text columns leave by themselves, named in a note; rows 2–5
	// of the data (lines 3–6) have a missing feature and are dropped (the
	// category's empty cell on line 6 is in an excluded column, but line 6
	// also has NaN in b).
	if !slices.Equal(ds.Features, []string{"row", "a", "b"}) || ds.Rows() != 2 || ds.Dropped != 4 || !slices.Equal(ds.Records, []int{0, 5}) {
		t.Fatalf("features %q, %d rows, %d dropped, records %v", ds.Features, ds.Rows(), ds.Dropped, ds.Records)
	}
	notes := strings.Join(ds.Notes, "; ")
	for _, want := range []string{`3 text columns ("id", "name", "kind") were left out`, "4 rows with missing values were dropped"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q do not say %q", notes, want)
		}
	}
	kinds := map[string]ColumnKind{}
	for _, c := range ds.Columns[:6] {
		kinds[c.Name] = c.Kind
		if (c.Role == RoleExcluded) != (c.Kind == Text) || c.Auto != (c.Kind == Text) {
			t.Errorf("column %q: kind %s, role %s, auto %v", c.Name, c.Kind, c.Role, c.Auto)
		}
	}
	if kinds["a"] != Numeric || kinds["kind"] != Text || ds.Columns[3].Levels != 3 || ds.Columns[3].Missing != 1 || ds.Columns[4].Missing != 2 {
		t.Errorf("columns %+v", ds.Columns)
	}
}

func TestCSVFillMean(t *testing.T) {
	ds, err := readCSV(messy, CSVOptions{Missing: MissingMean, Exclude: []string{"row"}, OneHot: []string{"kind"}, ID: "id"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.Features, []string{"kind=u", "kind=v", "kind=w", "a", "b"}) || ds.Rows() != 6 || ds.Dropped != 0 ||
		ds.IDName != "id" || !slices.Equal(ds.IDs, []string{"P020", "P021", "P022", "P023", "P024", "P025"}) {
		t.Fatalf("features %q, %d rows, %d dropped, ids %q", ds.Features, ds.Rows(), ds.Dropped, ds.IDs)
	}
	// Missing: a on lines 3 and 5, b on lines 4 and 6, kind on line 6.
	if ds.Missing != 5 || ds.MissingRows != 4 {
		t.Errorf("%d missing cells in %d rows, want 5 in 4", ds.Missing, ds.MissingRows)
	}
	if !strings.Contains(strings.Join(ds.Notes, "; "), "5 missing values in 4 rows are filled with the training mean") {
		t.Errorf("notes %q", ds.Notes)
	}
	want := [][]float64{ // by hand from the file; NaN is missing
		{1, 0, 0, 1, 10}, {0, 1, 0, math.NaN(), 20}, {0, 0, 1, 3, math.NaN()},
		{1, 0, 0, math.NaN(), 40}, {math.NaN(), math.NaN(), math.NaN(), 5, math.NaN()}, {0, 1, 0, 6, 60},
	}
	for i, r := range want {
		for j, v := range r {
			if got := ds.X.At(i, j); got != v && !(math.IsNaN(v) && math.IsNaN(got)) {
				t.Errorf("X[%d,%d] = %v, want %v", i, j, got, v)
			}
		}
	}
	// Fitted on rows 0, 1, 2, 5 (a "training part"): a's observed values
	// there are 1, 3, 6, so a missing a becomes their mean, 10/3, which
	// standardizes to 0; the test rows' values (row 4's 5) play no part.
	train := []int{0, 1, 2, 5}
	st, xs, err := Standardize(ds.X, train)
	if err != nil {
		t.Fatal(err)
	}
	mean, sd := 10.0/3, math.Sqrt(((1-10.0/3)*(1-10.0/3)+(3-10.0/3)*(3-10.0/3)+(6-10.0/3)*(6-10.0/3))/3)
	if math.Abs(st.Mean[3]-mean) > 1e-15*mean || math.Abs(st.Std[3]-sd) > 1e-15*sd {
		t.Errorf("a: mean %v std %v, want %v %v", st.Mean[3], st.Std[3], mean, sd)
	}
	if xs.At(1, 3) != 0 || xs.At(2, 4) != 0 || math.Abs(xs.At(0, 3)-(1-mean)/sd) > 1e-14 {
		t.Errorf("standardized: missing a → %v, missing b → %v, a=1 → %v", xs.At(1, 3), xs.At(2, 4), xs.At(0, 3))
	}
	all := st.Transform(ds.X)
	for i := range ds.Rows() {
		for j := range len(ds.Features) {
			if v := all.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(ds.X.At(i, j)) && v != 0 {
				t.Errorf("transformed X[%d,%d] = %v", i, j, v)
			}
		}
	}
}

func TestCSVColumnChoices(t *testing.T) {
	ds, err := readCSV(messy, CSVOptions{Missing: MissingDrop, Exclude: []string{"B", "row"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.Features, []string{"a"}) || ds.Rows() != 4 { // lines 3 and 5 miss a
		t.Fatalf("features %q, %d rows", ds.Features, ds.Rows())
	}
	// A row counter is a feature unless excluded, and the notes say so.
	ds, err = readCSV(messy, CSVOptions{Missing: MissingMean})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(ds.Notes, "; "), `column "row" counts the rows`) {
		t.Errorf("notes %q do not point at the row counter", ds.Notes)
	}
	for _, c := range []struct {
		o     CSVOptions
		parts []string
	}{
		{CSVOptions{Exclude: []string{"class"}}, []string{`"class" is the label column`}},
		{CSVOptions{Exclude: []string{"nope"}}, []string{`no column named "nope"`, `"kind"`}},
		{CSVOptions{Exclude: []string{"a"}, OneHot: []string{"a"}}, []string{`"a" is asked to be both excluded and one-hot`}},
		{CSVOptions{Missing: MissingMean, Exclude: []string{"row", "a", "b"}}, []string{"no feature column is left", `"id", "name", "kind"`, "one-hot"}},
		{CSVOptions{ID: "kind", Missing: MissingMean}, []string{"line 5", "column 4", `id "u" repeats the one on line 2`}},
		{CSVOptions{Exclude: []string{"7"}}, []string{"excluded column index 7 is out of range"}},
	} {
		mustFail(t, messy, c.o, c.parts...)
	}
	mustFail(t, "id,a,c\nP1,1,x\nNA,2,y\n", CSVOptions{ID: "id", Missing: MissingMean}, "line 3", "missing id")
	var many strings.Builder
	many.WriteString("a,b,c\n")
	for i := range 13 {
		fmt.Fprintf(&many, "%d,v%d,%c\n", i, i, 'x'+i%2)
	}
	mustFail(t, many.String(), CSVOptions{OneHot: []string{"b"}}, `"b" has more than 12 distinct values`)
	if _, err := readCSV(strings.Replace(many.String(), "v12", "v0", 1), CSVOptions{OneHot: []string{"b"}}); err != nil {
		t.Errorf("12 distinct values: %v", err)
	}
	if _, err := ParseMissing("fill"); err == nil || !strings.Contains(err.Error(), "error, drop or mean") {
		t.Errorf("ParseMissing(fill): %v", err)
	}
}
