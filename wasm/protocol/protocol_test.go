package protocol

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func samples() []Message {
	res := &Result{
		Progress: Progress{Status: "converged", Iter: 3, Gap: 0.5, RelGap: 1e-3, Dual: -1, Primal: 2, SumQ: 4, Budget: 8, BudgetActive: true, Seconds: 0.25,
			Iters: []float64{2, 3}, Gaps: []float64{1, 0.5}},
		Method: "fast", Triplets: 10, Swapped: 2, D: 2, N: 3, Test: []int{2},
		ErrEuclid: 0.25, ErrLearn: 0.125, K: 5, SuspectRows: []int{0, 1, 2}, SuspectSwapped: []int{1}, SuspectIndex: []int{7}, QHist: []int{3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, MarginHist: []int{1, 2, 0, 0, 1}, SuspectPrecision: 0.5,
		A: []float64{1, 0.5, 0.5, 2}, Eigen: []float64{2.2, 0.8}, Euclid: []float64{1, 2, 3, 4, 5, 6}, Learned: []float64{6, 5, 4, 3, 2, 1}, Labels: []float64{0, 1, 1},
	}
	return []Message{
		{ID: 1, Kind: KindLoad, Load: &Load{Builtin: "Iris", TestFrac: 0.15, Seed: 7, Rows: true}},
		{ID: 2, Kind: KindLoad, Load: &Load{CSV: "a,b\n1,x\n", FileName: "<b>.csv", Label: "b"}},
		{ID: 3, Kind: KindTrain, Train: &Train{KSame: 3, KDiff: 3, Flip: 0.1, Seed: 1, Eta: 0.8, Lambda: 1, Method: "fast", Tol: 1e-6, Warm: true, Drop: []int{4}, Reverse: []int{2, 9}}},
		{ID: 3, Kind: KindTrain, Train: &Train{Eta: 0.9, Lambda: 16, Method: "bestcase", Tol: 1e-3, Batch: true,
			Start: Start{Lambda: 16, Tol: 1e-3, MaxIter: 9, Data: 1<<63 + 5, A: []float64{1, 0, 0, 2}, Q: []float64{0, 0.5, 1}}}},
		{ID: 4, Kind: KindStop},
		{Kind: KindReady, Ready: &Ready{Builtins: []string{"Iris"}}},
		{ID: 1, Kind: KindDataset, Dataset: &Dataset{Name: "Iris", Rows: 3, Features: []string{"a"}, Columns: []string{"a", "y"}, Classes: []string{"p", "q"}, ClassCounts: []int{1, 2}, Preview: [][]string{{"a", "y"}}}},
		{ID: 3, Kind: KindProgress, Progress: &Progress{Iter: 1, Gap: 2, Iters: []float64{1}, Gaps: []float64{2}}},
		{ID: 3, Kind: KindProgress, Progress: &Progress{Iter: 1, Gap: 2, Iters: []float64{}, Gaps: []float64{}}},
		{ID: 3, Kind: KindResult, Result: res},
		{ID: 3, Kind: KindResult, Result: withStart(res)},
		{ID: 2, Kind: KindError, Error: &Error{Message: "line 2, column 2: x", Columns: []string{"a", "b"}}},
		{ID: 5, Kind: KindLoad, Load: &Load{CSV: "id,a,k,y\n", FileName: "f.csv", Missing: "mean", Exclude: []string{"a"}, OneHot: []string{"k"}, ID: "id"}},
		{ID: 6, Kind: KindTriplets, Triplets: &Triplets{CSV: "1,2,3\n", FileName: "t.csv", By: "row1"}},
		{ID: 6, Kind: KindTripletSet, TripletSet: &TripletSet{FileName: "t.csv", Count: 10, Used: 7, HeldOut: 3}},
		{ID: 7, Kind: KindTrain, Train: &Train{Eta: 0.8, Lambda: 1, Method: "fast", Tol: 1e-6, FromFile: true}},
		{ID: 5, Kind: KindDataset, Dataset: &Dataset{Name: "f.csv", Rows: 3, Features: []string{"k=u", "k=v"}, Columns: []string{"id", "a", "k", "y"},
			Table:   Table{Kinds: []string{"text", "number", "text", "text"}, Roles: []string{"id", "excluded", "one-hot", "label"}, Levels: []int{3, 3, 2, 2}, Holes: []int{0, 1, 0, 0}},
			Missing: 1, MissingRows: 1, IDName: "id", Classes: []string{"p", "q"}, Held: []int{2}, ErrEuclid: 0.5, K: 2,
			Euclid: []float64{1, 2, 3, 4, 5, 6}, Labels: []float64{0, 1, 1}, Z: []float64{-1, 0.5, 0, 1, 1, -1.5}}},
		{ID: 5, Kind: KindError, Error: &Error{Message: "no feature column is left", Columns: []string{"id", "y"}, Table: Table{Kinds: []string{"text", "text"}, Roles: []string{"", ""}, Levels: []int{3, 2}, Holes: []int{0, 0}}}},
		{ID: 3, Kind: KindProgress, Progress: &Progress{Iter: 9, Gap: 2, Iters: []float64{9}, Gaps: []float64{2}, FrameIter: 9, FrameErr: 0.25, Frame: []float64{1, 2, 3, 4}}},
		{ID: 9, Kind: KindPing}, {ID: 9, Kind: KindPong},
	}
}

// withStart returns a copy of r that carries a best-case start.
func withStart(r *Result) *Result {
	c := *r
	c.Method = "bestcase"
	c.Start = Start{Lambda: 2, Tol: 1e-3, Data: 42, A: []float64{1, 0.25, 0.25, 3}, Q: []float64{1, 1, 0}}
	return &c
}

func TestRoundTrip(t *testing.T) {
	for _, m := range samples() {
		h, data, err := Encode(m)
		if err != nil {
			t.Fatalf("%s: %v", m.Kind, err)
		}
		got, err := Decode(h, data)
		if err != nil {
			t.Fatalf("%s: %v", m.Kind, err)
		}
		m.V = Version
		if !reflect.DeepEqual(got, m) {
			t.Errorf("%s: round trip\n got %+v\nwant %+v", m.Kind, got, m)
		}
		// The arrays do not travel in the header.
		if m.Kind == KindResult && len(h) > 200 {
			t.Errorf("result header of %d bytes", len(h))
		}
	}
}

// header writes a header by hand: version, id, kind, then what fields adds.
func header(v int, kind string, fields func(w *writer)) []byte {
	w := &writer{}
	id := 1
	w.int(&v)
	w.int(&id)
	w.str(&kind)
	if fields != nil {
		fields(w)
	}
	return w.b
}

func TestDecodeRejects(t *testing.T) {
	res := samples()[9]
	h, data, _ := Encode(res)
	th, _, _ := Encode(samples()[3])
	for _, c := range []struct {
		name   string
		header []byte
		data   [][]float64
		want   string
	}{
		{"empty", nil, nil, "ends early"},
		{"old version", header(0, "stop", nil), nil, "version 0"},
		{"unknown kind", header(Version, "dance", nil), nil, `unknown kind "dance"`},
		{"missing body", header(Version, "train", nil), nil, "ends early"},
		{"cut short", h[:len(h)-3], data, "ends early"},
		{"bytes left over", append(header(Version, "stop", nil), 0), nil, "1 bytes left over"},
		{"huge length", header(Version, "ready", func(w *writer) { w.uvarint(1 << 60) }), nil, "bad length"},
		{"bad boolean", header(Version, "train", func(w *writer) {
			// Train's fields up to Warm, a boolean.
			i, f, u, e := 0, 0.0, uint64(0), ""
			w.int(&i)
			w.int(&i)
			w.f64(&f)
			w.u64(&u)
			w.f64(&f)
			w.f64(&f)
			w.str(&e)
			w.f64(&f)
			w.int(&i)
			w.b = append(w.b, 7)
		}), nil, "bad boolean"},
		{"arrays missing", h, data[:3], "carries 3 arrays, want 10"},
		{"A too short", h, [][]float64{{2, 3}, {1, .5}, nil, {1}, {2.2, .8}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}, {0, 1, 1}, nil, nil}, "A has 1 entries"},
		{"trace lengths", h, [][]float64{{2, 3}, {1}, nil, {1, .5, .5, 2}, {2.2, .8}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}, {0, 1, 1}, nil, nil}, "differ in length"},
		{"a start's metric not square", h, [][]float64{{2, 3}, {1, .5}, nil, {1, .5, .5, 2}, {2.2, .8}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}, {0, 1, 1}, {1, 2, 3}, {0.5}}, "a start's metric has 3 entries"},
		{"a start without weights", h, [][]float64{{2, 3}, {1, .5}, nil, {1, .5, .5, 2}, {2.2, .8}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}, {0, 1, 1}, {1}, nil}, "a start has 0 weights"},
		{"a train's start without a metric", th, [][]float64{nil, {0.5}}, "a start's metric has 0 entries"},
		{"a frame of odd length", h, [][]float64{{2, 3}, {1, .5}, {1, 2, 3}, {1, .5, .5, 2}, {2.2, .8}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}, {0, 1, 1}, nil, nil}, "a frame of 3 coordinates"},
		{"label not an index", h, [][]float64{{2, 3}, {1, .5}, nil, {1, .5, .5, 2}, {2.2, .8}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}, {0, 1.5, 1}, nil, nil}, "not a class index"},
	} {
		_, err := Decode(c.header, c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// Encode refuses a message whose body does not match its kind.
	for _, m := range []Message{{Kind: KindTrain}, {Kind: KindStop, Load: &Load{}}, {Kind: KindPong, Error: &Error{}}, {Kind: KindLoad, Load: &Load{}, Train: &Train{}}, {Kind: "dance"}} {
		if _, _, err := Encode(m); err == nil {
			t.Errorf("Encode(%+v) accepted", m)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, m := range samples() {
		h, data, _ := Encode(m)
		var flat []float64
		for _, a := range data {
			flat = append(flat, a...)
		}
		f.Add(h, len(data), encodeFloats(flat))
	}
	f.Fuzz(func(t *testing.T, header []byte, arrays int, raw []byte) {
		// Split raw's numbers into up to 8 arrays of varying length.
		flat := decodeFloats(raw)
		data := make([][]float64, arrays&7)
		for i := range data {
			k := min(len(flat), i+1)
			data[i], flat = flat[:k], flat[k:]
		}
		m, err := Decode(header, data)
		if err != nil {
			return
		}
		// What decodes encodes again, to the same message.
		h2, d2, err := Encode(m)
		if err != nil {
			t.Fatalf("decoded but does not encode: %v", err)
		}
		// Compare encodings, not values: NaN is not equal to itself.
		m2, err := Decode(h2, d2)
		if err != nil {
			t.Fatalf("second decode: %v", err)
		}
		h3, d3, _ := Encode(m2)
		if !bytes.Equal(h2, h3) || !sameBits(d2, d3) {
			t.Fatalf("second round trip differs")
		}
	})
}

func encodeFloats(v []float64) []byte {
	b, _ := json.Marshal(v)
	return b
}

func decodeFloats(b []byte) []float64 {
	var v []float64
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	return v
}

func sameBits(a, b [][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if math.Float64bits(a[i][j]) != math.Float64bits(b[i][j]) {
				return false
			}
		}
	}
	return true
}

// BenchmarkDecodeLoad decodes a Load carrying a CSV of 1 and 8 MB, as the
// worker receives an upload: the bytes allocated per decode show whether
// the text is copied out of the header.
func BenchmarkDecodeLoad(b *testing.B) {
	for _, mb := range []int{1, 8} {
		b.Run(strconv.Itoa(mb)+"MB", func(b *testing.B) {
			csv := strings.Repeat("1.5,2.25,3,a\n", mb<<20/13)
			h, data, err := Encode(Message{Kind: KindLoad, ID: 1, Load: &Load{CSV: csv, FileName: "big.csv", TestFrac: 0.15, Seed: 1}})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(csv)))
			for b.Loop() {
				m, err := Decode(h, data)
				if err != nil || len(m.Load.CSV) != len(csv) {
					b.Fatal(err)
				}
			}
		})
	}
}

// A file's text decodes as it was sent, also when empty.
func TestTextRoundTrip(t *testing.T) {
	for _, csv := range []string{"", "a,b\n1,2\n", strings.Repeat("x", 1<<16)} {
		h, data, err := Encode(Message{Kind: KindTriplets, ID: 2, Triplets: &Triplets{CSV: csv, FileName: "t.csv", By: "row0"}})
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(h, data)
		if err != nil || m.Triplets.CSV != csv || m.Triplets.FileName != "t.csv" || m.Triplets.By != "row0" {
			t.Errorf("%d bytes: got %d bytes, %q, %q (%v)", len(csv), len(m.Triplets.CSV), m.Triplets.FileName, m.Triplets.By, err)
		}
	}
}
