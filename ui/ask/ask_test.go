package ask

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/core"
)

// The same seed draws the same colours, to the bit; another seed others.
// Each colour's name says its hex, and its features are its components.
func TestColoursSeeded(t *testing.T) {
	a, b, c := Colours(1, 50), Colours(1, 50), Colours(2, 50)
	if !reflect.DeepEqual(a.X, b.X) || !reflect.DeepEqual(a.Names, b.Names) || a.Reference(3, 7) != b.Reference(3, 7) {
		t.Error("seed 1 drew two different sets")
	}
	if reflect.DeepEqual(a.X, c.X) {
		t.Error("seeds 1 and 2 drew the same colours")
	}
	for i := range a.Len() {
		if !strings.HasSuffix(a.Names[i], " "+a.CSS[i]) || len(a.CSS[i]) != 7 {
			t.Errorf("colour %d: name %q, CSS %q", i, a.Names[i], a.CSS[i])
		}
		if len(a.X[i]) != len(ColourFeatures) || a.Reference(i, i) != 0 {
			t.Errorf("colour %d: features %v", i, a.X[i])
		}
	}
	if lines := strings.Count(a.CSV(), "\n"); lines != 51 {
		t.Errorf("the CSV has %d lines, want a header and 50 rows", lines)
	}
}

// The schedule: every tenth question asks an earlier answered one again
// with its candidates swapped, every fifth of the others is held out, and
// every question names three different items.
func TestSchedule(t *testing.T) {
	it := Colours(3, 30)
	a := &Asker{Items: it}
	r := NewRespondent(it.Reference, 0.1, 3)
	for n := range 200 {
		q := a.Next(nil)
		if q.Anchor == q.Left || q.Anchor == q.Right || q.Left == q.Right {
			t.Fatalf("question %d names an item twice: %+v", n, q)
		}
		switch {
		case n%RepeatEvery == RepeatEvery-1:
			o := a.Answers[q.Of]
			if q.Kind != Repeat || o.Anchor != q.Anchor || o.Left != q.Right || o.Right != q.Left || o.Kind == Repeat {
				t.Fatalf("question %d: %+v, want answer %d's again, swapped: %+v", n, q, q.Of, o)
			}
		case n%HeldOutEvery == HeldOutEvery-3:
			if q.Kind != HeldOut {
				t.Fatalf("question %d: kind %d, want held out", n, q.Kind)
			}
		case q.Kind != Train:
			t.Fatalf("question %d: kind %d, want training", n, q.Kind)
		}
		if again := a.Next(nil); again != q {
			t.Fatalf("question %d asked twice: %+v then %+v", n, q, again)
		}
		c := r.Answer(q)
		if n%7 == 0 {
			c = Skip
		}
		a.Answers = append(a.Answers, Answer{q, c})
	}
	for _, tr := range a.Triplets() {
		if tr[0] == tr[1] || tr[1] == tr[2] {
			t.Fatalf("triplet %v", tr)
		}
	}
}

// An active question is the least sure of its pool, whose first member is
// the random question at the same number: so it is never surer than that.
func TestActiveLeastSure(t *testing.T) {
	it := Colours(4, 60)
	dist := Mahalanobis(it.Standardized(), nil)
	sure := func(q Question) float64 {
		dl, dr := dist(q.Anchor, q.Left), dist(q.Anchor, q.Right)
		return math.Abs(dl-dr) / (dl + dr)
	}
	random, active := &Asker{Items: it}, &Asker{Items: it, Active: true}
	r := NewRespondent(it.Reference, 0, 4)
	var sumR, sumA float64
	for range 100 {
		qr, qa := random.Next(dist), active.Next(dist)
		if qa.Kind == Train {
			if sure(qa) > sure(qr) {
				t.Fatalf("the active question %+v is surer (%.3f) than the random one %+v (%.3f)", qa, sure(qa), qr, sure(qr))
			}
			sumR, sumA = sumR+sure(qr), sumA+sure(qa)
		} else if qa.Kind != qr.Kind || (qa.Kind == HeldOut && qa != qr) || qa.Of != qr.Of {
			t.Fatalf("a held-out or repeated question differs: %+v and %+v", qa, qr)
		}
		random.Answers = append(random.Answers, Answer{qr, r.Answer(qr)})
		active.Answers = append(active.Answers, Answer{qa, r.Answer(qa)})
	}
	if !(sumA < sumR/4) {
		t.Errorf("active questions' mean sureness %.3f, random ones' %.3f: want far less", sumA, sumR)
	}
}

// The respondent errs at its rate: with rate 0 it always answers as its
// metric, with rate 1 never, and at 0.2 about a fifth of the time (binomial
// 3 sd).
func TestRespondent(t *testing.T) {
	it := Colours(5, 40)
	a := &Asker{Items: it}
	for _, e := range []float64{0, 0.2, 1} {
		r := NewRespondent(it.Reference, e, 5)
		wrong, n := 0, 2000
		for range n {
			q := a.random(r.rng)
			truth := Left
			if it.Reference(q.Anchor, q.Right) < it.Reference(q.Anchor, q.Left) {
				truth = Right
			}
			if r.Answer(q) != truth {
				wrong++
			}
		}
		if sd := math.Sqrt(e * (1 - e) / float64(n)); math.Abs(float64(wrong)/float64(n)-e) > 3*sd {
			t.Errorf("rate %v: wrong %d of %d", e, wrong, n)
		}
	}
}

// The error rate's 95 % interval, over 50 simulated respondents whose
// rates run from 0 to 0.3, each answering 300 questions (30 repeats),
// covers the true rate at least 95 % of the time; the map from the
// disagreements' share to ε inverts p = 2ε(1 − ε).
func TestErrorRateCalibrated(t *testing.T) {
	for _, e := range []float64{0, 0.05, 0.2, 0.5} {
		if got := epsOf(2 * e * (1 - e)); math.Abs(got-e) > 1e-12 {
			t.Errorf("ε(p(%v)) = %v", e, got)
		}
	}
	it := Colours(6, 120)
	covered, n := 0, 50
	for s := range n {
		truth := 0.3 * float64(s) / float64(n-1)
		r := NewRespondent(it.Reference, truth, uint64(100+s))
		a := &Asker{Items: &Items{Seed: uint64(100 + s), X: it.X}}
		for range 300 {
			q := a.Next(nil)
			a.Answers = append(a.Answers, Answer{q, r.Answer(q)})
		}
		e := EstimateErrorRate(a.All())
		if e.Pairs != 30 || !(e.Lo <= e.Est && e.Est <= e.Hi) {
			t.Fatalf("respondent %d: %+v", s, e)
		}
		if e.Lo <= truth && truth <= e.Hi {
			covered++
		}
	}
	if covered < 48 {
		t.Errorf("the interval covered the true rate for %d of %d respondents, want at least 95 %%", covered, n)
	}
	t.Logf("covered %d of %d", covered, n)
}

// Agreement counts the held-out answers a metric gives alike, a tie half;
// the respondent's own metric agrees with its error-free answers on all.
func TestAgreement(t *testing.T) {
	it := Colours(7, 40)
	a := &Asker{Items: it}
	r := NewRespondent(it.Reference, 0, 7)
	for range 100 {
		q := a.Next(nil)
		a.Answers = append(a.Answers, Answer{q, r.Answer(q)})
	}
	if got, n := a.Agreement(it.Reference); got != 1 || n != 20 {
		t.Errorf("the respondent's metric agrees on %v of %d held-out answers, want all of 20", got, n)
	}
	if got, _ := a.Agreement(func(i, j int) float64 { return 0 }); got != 0.5 {
		t.Errorf("a metric of ties agrees on %v, want one half", got)
	}
	if got, n := (&Asker{Items: it}).Agreement(it.Reference); !math.IsNaN(got) || n != 0 {
		t.Errorf("no answers: %v of %d", got, n)
	}
}

// Weighs names the features with the largest shares of the trace and the
// one hardly used.
func TestWeighs(t *testing.T) {
	a := []float64{
		2, 0, 0,
		0, 7.8, 0,
		0, 0, 0.2,
	}
	if got, want := Weighs([]string{"red", "lightness", "blue"}, a), "by lightness (78 %) and red (20 %), hardly by blue (2 %)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := Weighs([]string{"x", "y"}, make([]float64, 4)); got != "" {
		t.Errorf("A = 0: %q", got)
	}
}

// The answers' file reads back as written, is a triplet file with a
// header, and says which file is about other items and why.
func TestFile(t *testing.T) {
	it := Colours(8, 20)
	ts := [][3]int{{0, 1, 2}, {19, 3, 4}}
	text := FileText(it, `Ana, "A" (2nd)`, ts)
	if !strings.HasPrefix(text, "anchor (colours seed 8),similar,dissimilar (answered by Ana A 2nd)\n") {
		t.Fatalf("header %q", text)
	}
	f, err := ParseFile(it, "ana.csv", text)
	if err != nil || !reflect.DeepEqual(f.Triplets, ts) || f.Who != "Ana A 2nd" || f.Seed != 8 {
		t.Fatalf("read back: %+v, %v", f, err)
	}
	for _, c := range []struct{ text, want string }{
		{FileText(Colours(9, 20), "", ts), "b.csv: its answers are about colours seed 9; these items are colours seed 8"},
		{"0,1,2\n", `b.csv: line 1 is "0,1,2"; expected the Ask-me header`},
		{FileText(it, "", [][3]int{{0, 1, 20}}), "b.csv: line 2"},
	} {
		if _, err := ParseFile(it, "b.csv", c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// The answers kept in the browser read back as written, skips and kinds
// included, and a damaged line is named.
func TestAnswersText(t *testing.T) {
	it := Colours(10, 30)
	a := &Asker{Items: it}
	r := NewRespondent(it.Reference, 0.2, 10)
	for n := range 40 {
		q := a.Next(nil)
		c := r.Answer(q)
		if n%6 == 0 {
			c = Skip
		}
		a.Answers = append(a.Answers, Answer{q, c})
	}
	got, err := ParseAnswers(it, AnswersText(a.Answers))
	if err != nil || !reflect.DeepEqual(got, a.Answers) {
		t.Fatalf("read back: %v", err)
	}
	if got, err := ParseAnswers(it, ""); err != nil || len(got) != 0 {
		t.Errorf("no answers: %v, %v", got, err)
	}
	for _, c := range []struct{ text, want string }{
		{"1,2,3,0,0,1\n1,2,30,0,0,1\n", "line 2: items 1, 2, 30"},
		{"1,2,3,2,0,1\n", "line 1 repeats answer 0"},
		{"1,2,x,0,0,1\n", `line 1, field 3: "x"`},
	} {
		if _, err := ParseAnswers(it, c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// The items standardized here are core's standardization, to rounding:
// the metric the worker learns applies to them.
func TestStandardizedAsCore(t *testing.T) {
	it := Colours(11, 50)
	x := mat.NewDense(it.Len(), len(it.Features), nil)
	for i, row := range it.X {
		x.SetRow(i, row)
	}
	want := core.FitStandardizer(x, nil).Transform(x)
	for i, row := range it.Standardized() {
		for j, v := range row {
			if w := want.At(i, j); math.Abs(v-w) > 1e-12*math.Max(1, math.Abs(w)) {
				t.Fatalf("item %d, feature %d: %v, core %v", i, j, v, w)
			}
		}
	}
}

// Shapes are seeded too, vary in their five features only (grey, no hue),
// say themselves in words, and their reference weighs the features as
// stated: two shapes apart only in rotation are nearer than two apart
// only in corners by as much.
func TestShapes(t *testing.T) {
	a, b := Shapes(12, 60), Shapes(12, 60)
	if !reflect.DeepEqual(a.X, b.X) || !reflect.DeepEqual(a.Glyphs, b.Glyphs) {
		t.Error("seed 12 drew two different sets")
	}
	for i, g := range a.Glyphs {
		if css := a.CSS[i]; css[1:3] != css[3:5] || css[3:5] != css[5:7] {
			t.Errorf("shape %d is not grey: %s", i, css)
		}
		if !strings.Contains(a.Names[i], polygonNames[g.Corners-3]) || strings.Count(g.Points(10), ",") != g.Corners {
			t.Errorf("shape %d: %q, points %q", i, a.Names[i], g.Points(10))
		}
		for k, v := range a.X[i] {
			if v < 0 || v > 1 {
				t.Errorf("shape %d, feature %s = %v outside [0, 1]", i, ShapeFeatures[k], v)
			}
		}
	}
	// The reference reads the set's features: on three made-up rows, a
	// half-range turn costs 0.05 × ¼, half the corners' range 2 × ¼.
	it := Shapes(1, 3)
	it.X = [][]float64{{0, 0, 0, 0, 0}, {0, 0.5, 0, 0, 0}, {0, 0, 0.5, 0, 0}}
	if r1, r2 := it.Reference(0, 1), it.Reference(0, 2); math.Abs(r1-0.0125) > 1e-15 || math.Abs(r2-0.5) > 1e-15 {
		t.Errorf("rotation apart %v, corners apart %v; want 0.0125 and 0.5", r1, r2)
	}
	if _, ok := Open("no such set", 1); ok {
		t.Error("Open took an unknown set")
	}
}

// The Jacobi eigendecomposition agrees with gonum's on random symmetric
// matrices: eigenvalues to 1e-12 of the largest, and A v = λ v.
func TestEigenSym(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	for _, d := range []int{1, 2, 5, 9} {
		a := make([]float64, d*d)
		for i := range d {
			for j := i; j < d; j++ {
				a[i*d+j] = rng.NormFloat64()
				a[j*d+i] = a[i*d+j]
			}
		}
		vals, vecs := eigenSym(a, d)
		var es mat.EigenSym
		if !es.Factorize(mat.NewSymDense(d, a), false) {
			t.Fatal("gonum did not factorize")
		}
		want := es.Values(nil) // ascending
		big := math.Max(math.Abs(want[0]), math.Abs(want[d-1]))
		for i, v := range vals {
			if math.Abs(v-want[d-1-i]) > 1e-12*big {
				t.Errorf("d = %d: eigenvalue %d is %v, gonum's %v", d, i, v, want[d-1-i])
			}
			for r := range d {
				var av float64
				for c := range d {
					av += a[r*d+c] * vecs[i][c]
				}
				if math.Abs(av-v*vecs[i][r]) > 1e-10*big {
					t.Errorf("d = %d: (A v − λ v)[%d] = %v for eigenvalue %d", d, r, av-v*vecs[i][r], i)
				}
			}
		}
	}
}

// Direction names the top eigenvector's largest components with their
// signs, the largest positive, and its share of the trace.
func TestDirection(t *testing.T) {
	// A = 3 u uᵀ + 1 w wᵀ, u = (0.8, −0.6, 0) and w = (0, 0, 1): u carries
	// 3 of the trace's 4.
	a := []float64{
		1.92, -1.44, 0,
		-1.44, 1.08, 0,
		0, 0, 1,
	}
	if got, want := Direction([]string{"red", "green", "blue"}, a), "75 % of the trace: red +0.80, green −0.60"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := Direction([]string{"x", "y"}, make([]float64, 4)); got != "" {
		t.Errorf("A = 0: %q", got)
	}
}

// Whatever the browser kept or a file holds, reading it never panics, and
// what reads writes back to itself.
func FuzzParseAnswers(f *testing.F) {
	it := Colours(14, 20)
	f.Add("1,2,3,0,0,1\n4,5,6,2,0,2\n")
	f.Add(FileText(it, "Ana", [][3]int{{0, 1, 2}}))
	f.Add("anchor (colours seed 14),similar,dissimilar\n0,1,2\r\n3,4,5")
	f.Fuzz(func(t *testing.T, text string) {
		if a, err := ParseAnswers(it, text); err == nil {
			if b, err := ParseAnswers(it, AnswersText(a)); err != nil || !reflect.DeepEqual(a, b) && len(a) > 0 {
				t.Fatalf("%q: read %v, again %v, %v", text, a, b, err)
			}
		}
		if file, err := ParseFile(it, "f.csv", text); err == nil {
			again, err := ParseFile(it, "f.csv", FileText(it, file.Who, file.Triplets))
			if err != nil || !reflect.DeepEqual(again.Triplets, file.Triplets) || again.Who != file.Who {
				t.Fatalf("%q: read %+v, again %+v, %v", text, file, again, err)
			}
		}
	})
}

// A dataset's rows as items: named by their largest features, drawn as
// stars of one spoke a feature, and judged by a respondent who weighs a
// feature that tells the classes apart over one that does not.
func TestFromRows(t *testing.T) {
	// Feature 0 separates the two classes; feature 1 is the same spread
	// in both.
	z := []float64{-1, 1, -1.2, -1, 1, 1, 1.2, -1}
	it := FromRows("data-abc", 1, []string{"apart", "noise"}, z, []float64{0, 0, 1, 1}, []string{"p", "q"})
	if it.Len() != 4 || it.Names[0] != "row 0: apart −1.0, noise +1.0" || strings.Count(it.StarPoints(0, 10), ",") != 2 {
		t.Errorf("items: %d, %q, %q", it.Len(), it.Names[0], it.StarPoints(0, 10))
	}
	w := fisher(it.X, it.Family, 2)
	if !(w[0] > 1 && w[1] < 0.01) || math.Abs(w[0]+w[1]-2) > 1e-12 {
		t.Errorf("Fisher weights %v", w)
	}
	// Row 0 against row 1 (same class, apart in noise) and row 2 (other
	// class, apart in the feature that tells): the respondent finds row 1
	// nearer, Euclid row 2.
	if !(it.Reference(0, 1) < it.Reference(0, 2)) {
		t.Errorf("reference: %v and %v", it.Reference(0, 1), it.Reference(0, 2))
	}
}
