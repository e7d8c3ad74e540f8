package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/spec"
)

// neighbour is a candidate with its squared Euclidean distance.
type neighbour struct {
	d2 float64
	i  int
}

func cmpNeighbour(a, b neighbour) int {
	switch {
	case a.d2 < b.d2:
		return -1
	case a.d2 > b.d2:
		return 1
	}
	return a.i - b.i // ties broken by row index: deterministic
}

// selector keeps the k best neighbours offered (by cmpNeighbour) in a
// max-heap, so that choosing the k nearest of n rows costs O(n log k)
// instead of sorting all n.
type selector struct {
	k int
	h []neighbour // h[0] is the worst kept
}

func (s *selector) reset(k int) { s.k, s.h = k, s.h[:0] }

// bound is the distance a candidate must not exceed to be kept.
func (s *selector) bound() float64 {
	if len(s.h) < s.k {
		return math.Inf(1)
	}
	return s.h[0].d2
}

func (s *selector) offer(nb neighbour) {
	if len(s.h) < s.k {
		s.h = append(s.h, nb)
		for c := len(s.h) - 1; c > 0; { // sift up
			p := (c - 1) / 2
			if cmpNeighbour(s.h[c], s.h[p]) <= 0 {
				break
			}
			s.h[c], s.h[p] = s.h[p], s.h[c]
			c = p
		}
		return
	}
	if s.k == 0 || cmpNeighbour(nb, s.h[0]) >= 0 {
		return
	}
	s.h[0] = nb
	for p := 0; ; { // sift down
		c := 2*p + 1
		if c >= len(s.h) {
			break
		}
		if c+1 < len(s.h) && cmpNeighbour(s.h[c+1], s.h[c]) > 0 {
			c++
		}
		if cmpNeighbour(s.h[c], s.h[p]) <= 0 {
			break
		}
		s.h[c], s.h[p] = s.h[p], s.h[c]
		p = c
	}
}

// sorted returns the kept neighbours nearest first (reordering the heap).
func (s *selector) sorted() []neighbour {
	slices.SortFunc(s.h, cmpNeighbour)
	return s.h
}

// dist2 returns ‖a − b‖², or as soon as the partial sum exceeds bound some
// value above bound (which the caller then rejects).
func dist2(a, b []float64, bound float64) float64 {
	var s float64
	for k, v := range a {
		t := v - b[k]
		s += t * t
		if s > bound {
			return s
		}
	}
	return s
}

// Hooks let long work report how far it is and let a single-threaded host
// run its event loop. A nil *Hooks does neither.
type Hooks struct {
	// Progress, if not nil, is called now and then with the rows done of
	// the total, one call at a time.
	Progress func(done, total int)
	// YieldEvery and Yield work as in Settings.
	YieldEvery time.Duration
	Yield      func()
}

// ticker lets long work check its context and, every so often, let the
// host breathe (Settings.YieldEvery and Settings.Yield).
type ticker struct {
	ctx   context.Context
	every time.Duration
	yield func()
	last  time.Time
}

func newTicker(ctx context.Context, every time.Duration, yield func()) *ticker {
	if every == 0 && runtime.GOOS == "js" {
		every = 20 * time.Millisecond
	}
	return &ticker{ctx: ctx, every: every, yield: yield, last: time.Now()}
}

// NewCheck returns a check for long work outside core (CSVOptions.Check,
// a host's own loops): it yields through h as core's loops do, and
// returns ctx's error.
func NewCheck(ctx context.Context, h *Hooks) func() error {
	if h == nil {
		h = &Hooks{}
	}
	return newTicker(ctx, h.YieldEvery, h.Yield).tick
}

// tick yields if it is time to, and returns the context's error.
func (t *ticker) tick() error {
	if t.every > 0 && time.Since(t.last) >= t.every {
		if t.yield != nil {
			t.yield()
		} else {
			time.Sleep(time.Millisecond)
		}
		t.last = time.Now()
	}
	return t.ctx.Err()
}

// eachRow calls f(i, scratch) for i = 0..n−1: in parallel on the machine's
// cores natively, in one goroutine on js/wasm (which has one thread), where
// it lets the host breathe between rows. It stops with the context's error
// when ctx is cancelled. Each goroutine has its own scratch from newScratch.
func eachRow[S any](ctx context.Context, h *Hooks, n int, newScratch func() S, f func(i int, s S)) error {
	if h == nil {
		h = &Hooks{}
	}
	const chunk = 64
	var (
		mu   sync.Mutex
		done int
		last = time.Now()
	)
	report := func(k int) {
		if h.Progress == nil {
			return
		}
		mu.Lock()
		done += k
		if now := time.Now(); now.Sub(last) >= 50*time.Millisecond || done == n {
			last = now
			h.Progress(done, n)
		}
		mu.Unlock()
	}
	workers := runtime.GOMAXPROCS(0)
	if runtime.GOOS == "js" || n < 4*chunk {
		workers = 1
	}
	if workers == 1 {
		tk := newTicker(ctx, h.YieldEvery, h.Yield)
		s := newScratch()
		for i := 0; i < n; i++ {
			if err := tk.tick(); err != nil {
				return err
			}
			f(i, s)
			if i%chunk == chunk-1 || i == n-1 {
				report(i%chunk + 1)
			}
		}
		return nil
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newScratch()
			for ctx.Err() == nil {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n {
					return
				}
				hi := min(lo+chunk, n)
				for i := lo; i < hi; i++ {
					f(i, s)
				}
				report(hi - lo)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// MaxTriplets is the most triplets core builds or reads (spec.MaxTriplets:
// 2,000,000, about 250 MB of solver state).
const MaxTriplets = spec.MaxTriplets

// tooMany says that a triplet count (as a float, so that no product of
// user-given numbers overflows) is over MaxTriplets.
func tooMany(count float64, how string) error {
	if count <= MaxTriplets {
		return nil
	}
	return fmt.Errorf("%s = %.0f triplets: the limit is %d", how, count, MaxTriplets)
}

// LabelTriplets forms triplets from class labels: for every row x, its kSame
// nearest rows of the same class y and its kDiff nearest rows of other
// classes z (Euclidean, in x as given: standardize first), and every
// combination (x, y, z). It fails, naming the class, when a class has too
// few rows for kSame or too few rows outside it for kDiff, and when there
// would be more than MaxTriplets.
func LabelTriplets(x *mat.Dense, labels []int, classNames []string, kSame, kDiff int) ([]Triplet, error) {
	return LabelTripletsContext(context.Background(), nil, x, labels, classNames, kSame, kDiff)
}

// LabelTripletsContext is LabelTriplets with a context that stops the work
// (returning its error) and hooks for progress and yielding.
func LabelTripletsContext(ctx context.Context, h *Hooks, x *mat.Dense, labels []int, classNames []string, kSame, kDiff int) ([]Triplet, error) {
	n, _ := x.Dims()
	if len(labels) != n {
		panic("core: labels and rows differ in number")
	}
	if kSame < 1 || kDiff < 1 {
		return nil, fmt.Errorf("k_same = %d and k_diff = %d: both must be at least 1", kSame, kDiff)
	}
	if err := tooMany(float64(n)*float64(kSame)*float64(kDiff), fmt.Sprintf("%d rows × k_same %d × k_diff %d", n, kSame, kDiff)); err != nil {
		return nil, fmt.Errorf("%w; lower k_same or k_diff", err)
	}
	count := map[int]int{}
	for _, l := range labels {
		count[l]++
	}
	classes := slices.Sorted(maps.Keys(count))
	for _, c := range classes {
		k := count[c]
		if k-1 < kSame {
			return nil, fmt.Errorf("class %s has %d rows: k_same = %d needs at least %d", className(classNames, c), k, kSame, kSame+1)
		}
		if n-k < kDiff {
			return nil, fmt.Errorf("only %d rows are outside class %s: k_diff = %d needs at least %d", n-k, className(classNames, c), kDiff, kDiff)
		}
	}
	// near[i] holds row i's kSame same-class and then kDiff other-class
	// neighbours, nearest first.
	w := kSame + kDiff
	near := make([]int32, n*w)
	type scratch struct{ same, diff selector }
	err := eachRow(ctx, h, n, func() *scratch { return &scratch{} }, func(i int, s *scratch) {
		s.same.reset(kSame)
		s.diff.reset(kDiff)
		xi := x.RawRowView(i)
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			sel := &s.diff
			if labels[j] == labels[i] {
				sel = &s.same
			}
			sel.offer(neighbour{dist2(xi, x.RawRowView(j), sel.bound()), j})
		}
		out := near[i*w : (i+1)*w]
		for k, nb := range s.same.sorted() {
			out[k] = int32(nb.i)
		}
		for k, nb := range s.diff.sorted() {
			out[kSame+k] = int32(nb.i)
		}
	})
	if err != nil {
		return nil, err
	}
	ts := make([]Triplet, 0, n*kSame*kDiff)
	for i := 0; i < n; i++ {
		row := near[i*w : (i+1)*w]
		for _, j := range row[:kSame] {
			for _, k := range row[kSame:] {
				ts = append(ts, Triplet{i, int(j), int(k)})
			}
		}
	}
	return ts, nil
}

// PaperTriplets forms triplets as the paper does (after LMNN): the k nearest
// neighbours of each row x are split by class into must-links y (same class)
// and cannot-links z (other classes), and every combination (x, y, z) is a
// triplet. A row whose k neighbours are all of one kind gives none.
func PaperTriplets(x *mat.Dense, labels []int, k int) ([]Triplet, error) {
	return PaperTripletsContext(context.Background(), nil, x, labels, k)
}

// PaperTripletsContext is PaperTriplets with a context and hooks.
func PaperTripletsContext(ctx context.Context, h *Hooks, x *mat.Dense, labels []int, k int) ([]Triplet, error) {
	n, _ := x.Dims()
	if len(labels) != n {
		panic("core: labels and rows differ in number")
	}
	if k < 2 || k > n-1 {
		return nil, fmt.Errorf("k = %d: expected 2 ≤ k ≤ %d (rows − 1)", k, n-1)
	}
	// A row gives at most ⌊k/2⌋·⌈k/2⌉ triplets.
	if err := tooMany(float64(n)*float64(k/2)*float64(k-k/2), fmt.Sprintf("up to %d rows × ⌊k/2⌋·⌈k/2⌉ (k = %d)", n, k)); err != nil {
		return nil, fmt.Errorf("%w; lower k", err)
	}
	near := make([]int32, n*k)
	err := eachRow(ctx, h, n, func() *selector { return &selector{} }, func(i int, s *selector) {
		s.reset(k)
		xi := x.RawRowView(i)
		for j := 0; j < n; j++ {
			if j != i {
				s.offer(neighbour{dist2(xi, x.RawRowView(j), s.bound()), j})
			}
		}
		for c, nb := range s.sorted() {
			near[i*k+c] = int32(nb.i)
		}
	})
	if err != nil {
		return nil, err
	}
	var ts []Triplet
	var same, diff []int
	for i := 0; i < n; i++ {
		same, diff = same[:0], diff[:0]
		for _, j := range near[i*k : (i+1)*k] {
			if labels[j] == labels[i] {
				same = append(same, int(j))
			} else {
				diff = append(diff, int(j))
			}
		}
		for _, j := range same {
			for _, l := range diff {
				ts = append(ts, Triplet{i, j, l})
			}
		}
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("k = %d gives no triplets: no row has both a same-class and an other-class point among its %d nearest", k, k)
	}
	return ts, nil
}

func className(names []string, c int) string {
	if c >= 0 && c < len(names) {
		return strconv.Quote(clip(names[c], 40))
	}
	return strconv.Itoa(c)
}

// Flip swaps each triplet (x, y, z) to (x, z, y) independently with
// probability p, using the seed; swapped[i] says whether triplet i was
// swapped (the ground truth for the suspect list). The input is not changed.
func Flip(ts []Triplet, p float64, seed uint64) (out []Triplet, swapped []bool) {
	if p < 0 || p > 1 {
		panic("core: flip probability outside [0, 1]")
	}
	rng := rand.New(rand.NewPCG(seed, 0xf11b))
	out = slices.Clone(ts)
	swapped = make([]bool, len(ts))
	for i := range out {
		if rng.Float64() < p {
			out[i].J, out[i].K = out[i].K, out[i].J
			swapped[i] = true
		}
	}
	return out, swapped
}

// ReadTriplets reads triplets as 0-based row indices "anchor,similar,dissimilar",
// one per line, for a dataset of n rows. The first line is a header if none
// of its fields is a number; a line of numbers that are not all row indices
// is an error, never taken for a header. It is ReadTripletsKeyed with
// TripletKeys{N: n}.
func ReadTriplets(r io.Reader, n int) ([]Triplet, error) {
	return ReadTripletsKeyed(r, TripletKeys{N: n})
}

// TripletKeys say how a triplet file names the rows of a dataset.
type TripletKeys struct {
	N int // rows in the dataset
	// First is the number of the file's first data row, 0 or 1, when the
	// triplets name rows by number.
	First int
	// Records maps the dataset's rows to the file's data records
	// (Dataset.Records): a row number counts the file's data rows, and
	// one that was dropped is an error. nil: row i is record i.
	Records []int
	Total   int // the file's data records (rows and dropped rows); default N
	// IDs, if set, are the rows' ids (Dataset.IDs), and the triplets name
	// rows by id instead of by number; DroppedIDs are those of the rows
	// dropped (Dataset.DroppedIDs), which a triplet may name too.
	IDs        []string
	DroppedIDs []string
}

// ReadTripletsKeyed reads triplets "anchor,similar,dissimilar", one per
// line, naming rows as k says. The first line is a header if none of its
// fields names a row (by number: is a number; by id: is an id). Every error
// names the line and the field.
func ReadTripletsKeyed(r io.Reader, k TripletKeys) ([]Triplet, error) {
	ts, _, err := readTripletsKeyed(r, k, false)
	return ts, err
}

// ReadTripletsSkipping reads triplets as ReadTripletsKeyed does, except
// that a triplet naming a row that was dropped (for a missing value) is
// left out and counted in skipped instead of being an error: the page's
// file of answers about rows some of which it dropped is still read.
func ReadTripletsSkipping(r io.Reader, k TripletKeys) (ts []Triplet, skipped int, err error) {
	return readTripletsKeyed(r, k, true)
}

func readTripletsKeyed(r io.Reader, k TripletKeys, skip bool) ([]Triplet, int, error) {
	if k.First != 0 && k.First != 1 {
		panic("core: triplet rows numbered from neither 0 nor 1")
	}
	data, err := readAll(r, "the triplet file")
	if err != nil {
		return nil, 0, err
	}
	rs, err := readRecords(data, false, MaxTriplets+1, nil)
	if errors.Is(err, errTooManyRecords) {
		return nil, 0, fmt.Errorf("more than %d triplets: the limit is %d", MaxTriplets, MaxTriplets)
	}
	if err != nil {
		return nil, 0, err
	}
	find, names := k.finder()
	fields := [3]string{"anchor", "similar", "dissimilar"}
	var ts []Triplet
	skipped := 0
	for r, rec := range rs.rows {
		line := rs.lines[r]
		if len(rec) != 3 {
			return nil, 0, &DataError{Line: line, Msg: fmt.Sprintf("%d fields, expected 3: anchor,similar,dissimilar", len(rec))}
		}
		if r == 0 && !slices.ContainsFunc(rec, names) {
			continue // a header
		}
		var idx [3]int
		dropped := false
		for j, c := range rec {
			i, msg := find(c)
			if i == droppedRow && skip {
				dropped = true
				continue
			}
			if msg != "" {
				return nil, 0, &DataError{Line: line, Column: j + 1, Name: fields[j], Msg: msg}
			}
			idx[j] = i
		}
		if dropped {
			skipped++
			continue
		}
		if idx[0] == idx[1] || idx[0] == idx[2] || idx[1] == idx[2] {
			return nil, 0, &DataError{Line: line, Msg: fmt.Sprintf("triplet %s,%s,%s repeats a row: a triplet names three different rows", rec[0], rec[1], rec[2])}
		}
		ts = append(ts, Triplet{idx[0], idx[1], idx[2]})
	}
	if len(ts)+skipped > MaxTriplets {
		// The reader took one record more than the limit, for a header.
		return nil, 0, fmt.Errorf("more than %d triplets: the limit is %d", MaxTriplets, MaxTriplets)
	}
	if len(ts) == 0 {
		if skipped > 0 {
			return nil, skipped, fmt.Errorf("each of the triplet file's %d triplets names a row that was dropped for a missing value", skipped)
		}
		return nil, 0, errors.New("the triplet file has no triplets")
	}
	return ts, skipped, nil
}

// droppedRow is what finder returns for a row that was dropped, beside
// the message that says so.
const droppedRow = -1

// finder returns how k finds a field's row (the row, or what is wrong:
// droppedRow for a row dropped for a missing value) and whether a field
// looks like a row's name at all (for the header).
func (k TripletKeys) finder() (find func(string) (int, string), names func(string) bool) {
	if k.IDs != nil {
		row := make(map[string]int, len(k.IDs)+len(k.DroppedIDs))
		for _, id := range k.DroppedIDs {
			row[id] = droppedRow
		}
		for i, id := range k.IDs {
			row[id] = i
		}
		return func(c string) (int, string) {
				i, ok := row[c]
				switch {
				case !ok:
					return 0, fmt.Sprintf("no row has the id %q", clip(c, 40))
				case i == droppedRow:
					return droppedRow, fmt.Sprintf("the row with the id %q was dropped (it has a missing value)", clip(c, 40))
				}
				return i, ""
			}, func(c string) bool {
				_, ok := row[c]
				return ok
			}
	}
	// Row numbers count the file's data records; rec maps a record to its
	// row in the dataset (−1: dropped).
	records := max(k.N, k.Total)
	rec := make([]int, records)
	for i := range rec {
		rec[i] = i
		if k.Records != nil {
			rec[i] = -1
		}
	}
	for i, r := range k.Records {
		if r >= 0 && r < records {
			rec[r] = i
		}
	}
	return func(c string) (int, string) {
		v, err := strconv.Atoi(c)
		if err != nil {
			return 0, fmt.Sprintf("%q is not a row index (a whole number from %d)", clip(c, 40), k.First)
		}
		r := v - k.First
		if r < 0 || r >= records {
			if k.Records == nil && k.First == 0 {
				return 0, fmt.Sprintf("row index %d is out of range: the data has rows 0..%d", v, records-1)
			}
			return 0, fmt.Sprintf("row %d is out of range: the file's data rows are numbered %d to %d", v, k.First, records-1+k.First)
		}
		if rec[r] < 0 {
			return droppedRow, fmt.Sprintf("row %d was dropped (it has a missing value)", v)
		}
		return rec[r], ""
	}, func(c string) bool { return looksNumeric(c, false) }
}
