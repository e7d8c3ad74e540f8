package ask

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/core"
)

// learn is the metric the Ask-me mode learns from a's training answers:
// the fast method at η and λ as the page asks, to its tolerance.
func learn(tb testing.TB, a *Asker, eta, lambda float64) []float64 {
	var ts []core.Triplet
	for _, t := range a.Triplets() {
		ts = append(ts, core.Triplet{I: t[0], J: t[1], K: t[2]})
	}
	z := a.Items.Standardized()
	x := mat.NewDense(len(z), len(z[0]), nil)
	for i, row := range z {
		x.SetRow(i, row)
	}
	pp, err := core.Prepare(x, ts)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := core.Solve(context.Background(), pp.Problem(eta, lambda), core.Settings{Method: core.Fast, Tol: 1e-3})
	if err != nil {
		tb.Fatal(err)
	}
	return res.A.RawSymmetric().Data
}

// truthAgreement is the share of qs whose answer by dist is the hidden
// metric's, error-free.
func truthAgreement(qs []Question, truth, dist Dist) float64 {
	agree := 0.0
	for _, q := range qs {
		t := truth(q.Anchor, q.Left) < truth(q.Anchor, q.Right)
		d := dist(q.Anchor, q.Left) < dist(q.Anchor, q.Right)
		if t == d {
			agree++
		}
	}
	return agree / float64(len(qs))
}

// BenchmarkAskActive answers colour questions by CIEDE2000, wrong one time
// in ten, random against active questions, over 20 seeds: the learned
// metric's agreement with CIEDE2000 on 1,000 fresh questions after 100
// answers, and the answers each strategy needed to reach an agreement of
// askTarget (checked every 20 answers; a run that never reaches it within
// 300 counts 300). Euclid's agreement is the start.
func BenchmarkAskActive(b *testing.B) {
	const seeds = 20
	for range b.N {
		var need, at100 [2]float64
		var euclid float64
		for s := uint64(1); s <= seeds; s++ {
			it := Colours(s, DefaultItems)
			rng := rand.New(rand.NewPCG(s, 99))
			probe := &Asker{Items: it}
			qs := make([]Question, 1000)
			for i := range qs {
				qs[i] = probe.random(rng)
			}
			euclid += truthAgreement(qs, it.Reference, Mahalanobis(it.Standardized(), nil)) / seeds
			for k, active := range []bool{false, true} {
				n, ag := answersTo(b, it, qs, active, s)
				need[k] += float64(n) / seeds
				at100[k] += ag / seeds
			}
		}
		b.ReportMetric(euclid, "agree-euclid")
		b.ReportMetric(at100[0], "agree@100-random")
		b.ReportMetric(at100[1], "agree@100-active")
		b.ReportMetric(need[0], "answers-random")
		b.ReportMetric(need[1], "answers-active")
	}
}

// askTarget is the agreement with CIEDE2000 BenchmarkAskActive counts the
// answers to.
const askTarget = 0.85

// answersTo runs one simulated respondent (seed) on it's questions, random
// or active, learning after every 20 answers: the answers it took to reach
// askTarget on qs (300 if it never did) and the agreement after 100.
func answersTo(tb testing.TB, it *Items, qs []Question, active bool, seed uint64) (need int, at100 float64) {
	const step, most = 20, 300
	z := it.Standardized()
	a := &Asker{Items: it, Active: active}
	r := NewRespondent(it.Reference, 0.1, seed)
	var dist Dist
	need = most
	for len(a.Answers) < most {
		q := a.Next(dist)
		a.Answers = append(a.Answers, Answer{q, r.Answer(q)})
		if len(a.Answers)%step != 0 {
			continue
		}
		dist = Mahalanobis(z, learn(tb, a, 0.9, AskLambda))
		ag := truthAgreement(qs, it.Reference, dist)
		if len(a.Answers) == 100 {
			at100 = ag
		}
		if ag >= askTarget && need == most {
			need = len(a.Answers)
		}
	}
	return need, at100
}
