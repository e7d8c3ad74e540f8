package core

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// On a line of points, each point's nearest same-class and other-class
// neighbours are known by hand.
func TestLabelTripletsByHand(t *testing.T) {
	x := mat.NewDense(6, 1, []float64{0, 1, 2, 10, 11, 12})
	labels := []int{0, 0, 1, 1, 1, 0}
	ts, err := LabelTriplets(x, labels, []string{"a", "b"}, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Row 0 (at 0): nearest same = row 1; nearest other = rows 2 (at 2), 3 (at 10).
	want0 := []Triplet{{0, 1, 2}, {0, 1, 3}}
	if !slices.Equal(ts[:2], want0) {
		t.Fatalf("row 0: %v, want %v", ts[:2], want0)
	}
	if len(ts) != 6*1*2 {
		t.Fatalf("%d triplets, want 12", len(ts))
	}
	// Row 5 (at 12): nearest same among {0, 1} is row 1 (at 1); others 4 (11), 3 (10).
	if want := []Triplet{{5, 1, 4}, {5, 1, 3}}; !slices.Equal(ts[10:], want) {
		t.Fatalf("row 5: %v, want %v", ts[10:], want)
	}
}

func TestLabelTripletsClassTooSmall(t *testing.T) {
	x := mat.NewDense(5, 1, []float64{0, 1, 2, 3, 4})
	_, err := LabelTriplets(x, []int{0, 0, 1, 1, 1}, []string{"small", "big"}, 2, 1)
	if err == nil || !strings.Contains(err.Error(), `class "small" has 2 rows: k_same = 2 needs at least 3`) {
		t.Fatalf("got %v", err)
	}
	_, err = LabelTriplets(x, []int{0, 0, 1, 1, 1}, []string{"small", "big"}, 1, 3)
	if err == nil || !strings.Contains(err.Error(), `only 2 rows are outside class "big": k_diff = 3`) {
		t.Fatalf("got %v", err)
	}
}

func TestPaperTriplets(t *testing.T) {
	x := mat.NewDense(6, 1, []float64{0, 1, 2, 10, 11, 12})
	labels := []int{0, 0, 1, 1, 1, 0}
	ts, err := PaperTriplets(x, labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Row 0: neighbours 1 (same), 2 (other) → (0,1,2). Row 1: 0, 2 → (1,0,2).
	// Row 2: 1 (other), 0/3 at distance 2 and 8 → 1, 0 both other: none.
	if !slices.Equal(ts[:2], []Triplet{{0, 1, 2}, {1, 0, 2}}) {
		t.Fatalf("got %v", ts)
	}
	if _, err := PaperTriplets(x, labels, 9); err == nil {
		t.Fatal("k beyond rows accepted")
	}
}

func TestFlipSeeded(t *testing.T) {
	ts := make([]Triplet, 1000)
	for i := range ts {
		ts[i] = Triplet{i, i + 1, i + 2}
	}
	a, sa := Flip(ts, 0.2, 3)
	b, sb := Flip(ts, 0.2, 3)
	if !slices.Equal(a, b) || !slices.Equal(sa, sb) {
		t.Fatal("same seed, different swaps")
	}
	n := 0
	for i, s := range sa {
		if s {
			n++
			if a[i] != (Triplet{i, i + 2, i + 1}) {
				t.Fatalf("swapped triplet %d is %v", i, a[i])
			}
		} else if a[i] != ts[i] {
			t.Fatalf("unswapped triplet %d changed", i)
		}
	}
	// Binomial(1000, 0.2): mean 200, sd 12.6; ±5 sd.
	if n < 137 || n > 263 {
		t.Fatalf("%d swapped of 1000 at p = 0.2", n)
	}
	if ts[0] != (Triplet{0, 1, 2}) {
		t.Fatal("input modified")
	}
}

func TestReadTriplets(t *testing.T) {
	ts, err := ReadTriplets(strings.NewReader("anchor,similar,dissimilar\n0,1,2\n3, 4, 5\n"), 6)
	if err != nil || !slices.Equal(ts, []Triplet{{0, 1, 2}, {3, 4, 5}}) {
		t.Fatalf("%v %v", ts, err)
	}
	bad := []struct{ in, msg string }{
		{"0,1,2\n0,x,2\n", `line 2, column 2 ("similar"): "x" is not a row index`},
		{"0,1,2\n0,1,9\n", `line 2, column 3 ("dissimilar"): row index 9 is out of range: the data has rows 0..5`},
		{"0,1,2\n0,1\n", "line 2: 2 fields, expected 3"},
		{"0,1,1\n", "repeats a row"},
		{"0,-1,2\n", "out of range"},
		{"a,b,c\n", "no triplets"},
	}
	for _, b := range bad {
		_, err := ReadTriplets(strings.NewReader(b.in), 6)
		if err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("%q: got %v, want %q", b.in, err, b.msg)
		}
	}
}

// Rows named by number from 1, over a file whose second data row was
// dropped (Records), or by id.
func TestReadTripletsKeyed(t *testing.T) {
	ds, err := readCSV("id,a,c\nP1,1,x\nP2,NA,y\nP3,3,x\nP4,4,y\nP5,5,x\n", CSVOptions{ID: "id", Missing: MissingDrop})
	if err != nil {
		t.Fatal(err)
	}
	byNumber := TripletKeys{N: ds.Rows(), First: 1, Records: ds.Records, Total: ds.Rows() + ds.Dropped}
	// File rows 1, 3, 4 are dataset rows 0, 1, 2 (row 2 was dropped).
	ts, err := ReadTripletsKeyed(strings.NewReader("1,3,4\n5,4,1\n"), byNumber)
	if err != nil || !slices.Equal(ts, []Triplet{{0, 1, 2}, {3, 2, 0}}) {
		t.Fatalf("by number: %v %v", ts, err)
	}
	byID := TripletKeys{N: ds.Rows(), IDs: ds.IDs}
	ts, err = ReadTripletsKeyed(strings.NewReader("anchor,similar,dissimilar\nP1,P3,P4\nP5,P4,P1\n"), byID)
	if err != nil || !slices.Equal(ts, []Triplet{{0, 1, 2}, {3, 2, 0}}) {
		t.Fatalf("by id: %v %v", ts, err)
	}
	bad := []struct {
		in   string
		keys TripletKeys
		msg  string
	}{
		{"1,3,4\n1,2,4\n", byNumber, `line 2, column 2 ("similar"): row 2 was dropped (it has a missing value)`},
		{"1,3,4\n0,3,4\n", byNumber, `line 2, column 1 ("anchor"): row 0 is out of range: the file's data rows are numbered 1 to 5`},
		{"1,3,6\n", byNumber, "row 6 is out of range"},
		{"P1,P3,P4\nP1,P9,P4\n", byID, `line 2, column 2 ("similar"): no row has the id "P9"`},
		{"P1,P3,P1\n", byID, "triplet P1,P3,P1 repeats a row"},
		{"P1,P2,P3\n", byID, `line 1, column 2 ("similar"): no row has the id "P2"`},
	}
	for _, b := range bad {
		_, err := ReadTripletsKeyed(strings.NewReader(b.in), b.keys)
		if err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("%q: got %v, want %q", b.in, err, b.msg)
		}
	}
	// The dataset knows the ids of the rows it dropped; a triplet naming
	// one is an error that says so, or, read skipping, left out and
	// counted. Whatever else is wrong stays an error.
	if !slices.Equal(ds.DroppedIDs, []string{"P2"}) {
		t.Fatalf("dropped ids %q", ds.DroppedIDs)
	}
	byID.DroppedIDs = ds.DroppedIDs
	if _, err := ReadTripletsKeyed(strings.NewReader("P1,P3,P4\nP2,P3,P4\n"), byID); err == nil || !strings.Contains(err.Error(), `line 2, column 1 ("anchor"): the row with the id "P2" was dropped`) {
		t.Errorf("a dropped id: %v", err)
	}
	for _, c := range []struct {
		in   string
		keys TripletKeys
	}{{"P1,P3,P4\nP2,P3,P4\nP5,P4,P2\n", byID}, {"1,3,4\n2,3,4\n5,4,2\n", byNumber}} {
		ts, skipped, err := ReadTripletsSkipping(strings.NewReader(c.in), c.keys)
		if err != nil || skipped != 2 || !slices.Equal(ts, []Triplet{{0, 1, 2}}) {
			t.Errorf("skipping %q: %v, %d skipped, %v", c.in, ts, skipped, err)
		}
	}
	if _, _, err := ReadTripletsSkipping(strings.NewReader("P2,P3,P4\n"), byID); err == nil || !strings.Contains(err.Error(), "each of the triplet file's 1 triplets names a row that was dropped") {
		t.Errorf("only dropped rows: %v", err)
	}
	if _, _, err := ReadTripletsSkipping(strings.NewReader("P1,P3,P4\nP1,P9,P4\n"), byID); err == nil || !strings.Contains(err.Error(), `no row has the id "P9"`) {
		t.Errorf("skipping, an unknown id: %v", err)
	}
}

// A triplet file holds at most MaxTriplets triplets, with a header line
// or without: the reader's one record to spare is for the header, and a
// file of MaxTriplets+1 triplets without one was read whole.
func TestReadTripletsLimit(t *testing.T) {
	var b strings.Builder
	b.Grow(8 * (MaxTriplets + 1))
	for range MaxTriplets + 1 {
		b.WriteString("0,1,2\n")
	}
	if _, err := ReadTriplets(strings.NewReader(b.String()), 3); err == nil || !strings.Contains(err.Error(), "the limit is") {
		t.Errorf("%d triplets: %v", MaxTriplets+1, err)
	}
	if ts, err := ReadTriplets(strings.NewReader("anchor,similar,dissimilar\n"+strings.Repeat("0,1,2\n", MaxTriplets)), 3); err != nil || len(ts) != MaxTriplets {
		t.Errorf("%d triplets under a header: %d, %v", MaxTriplets, len(ts), err)
	}
}
