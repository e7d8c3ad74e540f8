package core

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
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

// sortedNeighbours returns, for row i of x, all other rows ordered by
// Euclidean distance (ties by index).
func sortedNeighbours(dst []neighbour, x *mat.Dense, i int) []neighbour {
	n, _ := x.Dims()
	xi := x.RawRowView(i)
	dst = dst[:0]
	for j := 0; j < n; j++ {
		if j == i {
			continue
		}
		xj := x.RawRowView(j)
		var s float64
		for k, v := range xi {
			t := v - xj[k]
			s += t * t
		}
		dst = append(dst, neighbour{s, j})
	}
	slices.SortFunc(dst, cmpNeighbour)
	return dst
}

// LabelTriplets forms triplets from class labels: for every row x, its kSame
// nearest rows of the same class y and its kDiff nearest rows of other
// classes z (Euclidean, in x as given: standardize first), and every
// combination (x, y, z). It fails, naming the class, when a class has too
// few rows for kSame or too few rows outside it for kDiff.
func LabelTriplets(x *mat.Dense, labels []int, classNames []string, kSame, kDiff int) ([]Triplet, error) {
	n, _ := x.Dims()
	if len(labels) != n {
		panic("core: labels and rows differ in number")
	}
	if kSame < 1 || kDiff < 1 {
		return nil, fmt.Errorf("k_same = %d and k_diff = %d: both must be at least 1", kSame, kDiff)
	}
	count := map[int]int{}
	for _, l := range labels {
		count[l]++
	}
	for c, k := range count {
		if k-1 < kSame {
			return nil, fmt.Errorf("class %s has %d rows: k_same = %d needs at least %d", className(classNames, c), k, kSame, kSame+1)
		}
		if n-k < kDiff {
			return nil, fmt.Errorf("only %d rows are outside class %s: k_diff = %d needs at least %d", n-k, className(classNames, c), kDiff, kDiff)
		}
	}
	ts := make([]Triplet, 0, n*kSame*kDiff)
	var buf []neighbour
	same, diff := make([]int, 0, kSame), make([]int, 0, kDiff)
	for i := 0; i < n; i++ {
		buf = sortedNeighbours(buf, x, i)
		same, diff = same[:0], diff[:0]
		for _, nb := range buf {
			if labels[nb.i] == labels[i] {
				if len(same) < kSame {
					same = append(same, nb.i)
				}
			} else if len(diff) < kDiff {
				diff = append(diff, nb.i)
			}
			if len(same) == kSame && len(diff) == kDiff {
				break
			}
		}
		for _, j := range same {
			for _, k := range diff {
				ts = append(ts, Triplet{i, j, k})
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
	n, _ := x.Dims()
	if len(labels) != n {
		panic("core: labels and rows differ in number")
	}
	if k < 2 || k > n-1 {
		return nil, fmt.Errorf("k = %d: expected 2 ≤ k ≤ %d (rows − 1)", k, n-1)
	}
	var ts []Triplet
	var buf []neighbour
	for i := 0; i < n; i++ {
		buf = sortedNeighbours(buf, x, i)
		var same, diff []int
		for _, nb := range buf[:k] {
			if labels[nb.i] == labels[i] {
				same = append(same, nb.i)
			} else {
				diff = append(diff, nb.i)
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

// MaxTriplets is the most triplets ReadTriplets accepts.
const MaxTriplets = 1_000_000

// ReadTriplets reads triplets as 0-based row indices "anchor,similar,dissimilar",
// one per line, with an optional header, for a dataset of n rows.
func ReadTriplets(r io.Reader, n int) ([]Triplet, error) {
	data, err := io.ReadAll(io.LimitReader(r, DefaultMaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading the triplets: %v", err)
	}
	if len(data) > DefaultMaxSize {
		return nil, fmt.Errorf("the triplet file is larger than %d MiB", DefaultMaxSize>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = detectDelimiter(data)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	names := [3]string{"anchor", "similar", "dissimilar"}
	var ts []Triplet
	first := true
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
			continue
		}
		if len(rec) != 3 {
			return nil, &DataError{Line: line, Msg: fmt.Sprintf("%d fields, expected 3: anchor,similar,dissimilar", len(rec))}
		}
		var idx [3]int
		bad := -1
		for j, c := range rec {
			v, err := strconv.Atoi(strings.TrimSpace(c))
			if err != nil {
				bad = j
				break
			}
			idx[j] = v
		}
		if bad >= 0 {
			if first {
				first = false
				continue // a header
			}
			return nil, &DataError{Line: line, Column: bad + 1, Name: names[bad], Msg: fmt.Sprintf("%q is not a row index (a whole number from 0)", clip(rec[bad], 40))}
		}
		first = false
		for j, v := range idx {
			if v < 0 || v >= n {
				return nil, &DataError{Line: line, Column: j + 1, Name: names[j], Msg: fmt.Sprintf("row index %d is out of range: the data has rows 0..%d", v, n-1)}
			}
		}
		if idx[0] == idx[1] || idx[0] == idx[2] || idx[1] == idx[2] {
			return nil, &DataError{Line: line, Msg: fmt.Sprintf("triplet %d,%d,%d repeats a row: a triplet names three different rows", idx[0], idx[1], idx[2])}
		}
		ts = append(ts, Triplet{idx[0], idx[1], idx[2]})
		if len(ts) > MaxTriplets {
			return nil, fmt.Errorf("more than %d triplets: the limit is %d", MaxTriplets, MaxTriplets)
		}
	}
	if len(ts) == 0 {
		return nil, errors.New("the triplet file has no triplets")
	}
	return ts, nil
}
