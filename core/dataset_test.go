package core

import (
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
	ds, err := readCSV("a,b,class\n1,2,x\n3,NA,y\n5,6,y\n7,8,x\n", CSVOptions{DropMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Dropped != 1 || ds.Rows() != 3 || !slices.Equal(ds.Lines, []int{2, 4, 5}) {
		t.Fatalf("dropped %d, rows %d, lines %v", ds.Dropped, ds.Rows(), ds.Lines)
	}
	mustFail(t, "a,b,class\n1,NA,x\n", CSVOptions{DropMissing: true}, "no rows left")
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
	mustFail(t, "a,b,class\n1,2,x\n3,NaN,y\n", CSVOptions{}, "line 3", "column 2", "not a finite number")
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
		f.Add(s, "", false)
	}
	f.Fuzz(func(t *testing.T, s, label string, drop bool) {
		ds, err := ReadCSV(strings.NewReader(s), CSVOptions{Label: label, DropMissing: drop, MaxRows: 1000})
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		n, d := ds.X.Dims()
		if n != len(ds.Labels) || n != len(ds.Lines) || d != len(ds.Features) || len(ds.Classes) < 2 {
			t.Fatalf("inconsistent dataset: %d×%d, %d labels, %d features", n, d, len(ds.Labels), len(ds.Features))
		}
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				if v := ds.X.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("non-finite value %v accepted", v)
				}
			}
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
