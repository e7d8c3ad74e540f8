package store

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rml-lab/rml/wasm/protocol"
	"github.com/rml-lab/rml/wasm/session"
)

// run trains what a preset's page would, on the worker's own code: its
// dataset with its seed's split, at its settings with η, λ, the noise or
// the method changed by edit.
func run(t *testing.T, p Params, edit func(*protocol.Train)) *protocol.Result {
	t.Helper()
	s := session.New(func(file string) ([]byte, error) {
		return os.ReadFile(filepath.Join("..", "..", "assets", "datasets", file))
	})
	if _, e := s.Load(protocol.Load{Builtin: p.Dataset, TestFrac: TestFrac, Seed: p.Seed}); e != nil {
		t.Fatal(e.Message)
	}
	req := protocol.Train{KSame: p.KSame, KDiff: p.KDiff, Flip: p.Flip, Seed: p.Seed, Eta: p.Eta, Lambda: p.Lambda, Method: p.Method, Tol: p.Tol}
	if edit != nil {
		edit(&req)
	}
	r, e := s.Train(context.Background(), req, func(*protocol.Progress) {})
	if e != nil {
		t.Fatal(e.Message)
	}
	return r
}

// pct is an error as the page prints it (draw.Percent: one decimal).
func pct(v float64) float64 { return math.Round(v*1000) / 10 }

func rank(r *protocol.Result) int {
	n := 0
	for _, v := range r.Eigen {
		if v > 1e-9*r.Eigen[0] {
			n++
		}
	}
	return n
}

// TestPresetClaims checks every number and claim of each preset's text
// against the runs the page makes (the page rounds errors to 0.1 %).
func TestPresetClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("trains every preset")
	}
	check := func(key, claim string, ok bool, got ...any) {
		t.Helper()
		if !ok {
			t.Errorf("preset %s: %q does not hold: %v", key, claim, got)
		}
	}
	say := func(key, s string) {
		t.Helper()
		if p, _ := PresetNamed(key); !strings.Contains(p.Text, s) {
			t.Errorf("preset %s no longer says %q; update this test with its text", key, s)
		}
	}
	with := func(f func(*protocol.Train)) func(*protocol.Train) { return f }

	learn, _ := PresetNamed("learn")
	r := run(t, learn.Params, nil)
	overSeeds := runtime.GOOS != "js" // the seeds' loops run natively: the same code, and ten times faster
	say("learn", "12.2 % of the 90 held-out rows")
	say("learn", "none of them: A puts 42 %")
	say("learn", "93 %")
	check("learn", "12.2 % of 90 / none, 93 % swapped", pct(r.ErrEuclid) == 12.2 && r.ErrLearn == 0 && len(r.Test) == 90 && math.Round(r.SuspectPrecision*100) == 93,
		r.ErrEuclid, r.ErrLearn, len(r.Test), r.SuspectPrecision)
	// "42 % of its weight on the two signal features (s1, s2, the first
	// two columns), whose share of the Euclidean metric is 10 %": 2 of 20.
	d := r.D
	var signal, all float64
	for i := 0; i < d; i++ {
		all += r.A[i*d+i]
		if i < 2 {
			signal += r.A[i*d+i]
		}
	}
	check("learn", "42 % of the trace on s1, s2", math.Round(100*signal/all) == 42 && d == 20, signal/all)

	say("learn", "over seeds 1 to 20 the learned metric errs on 1.1 % against Euclid's 10.8 %, better on every split")
	say("learn", "40 to 46 % of its weight on the signal and 92 to 95 % of its suspects swapped")
	if overSeeds {
		var eu, le float64
		wlo, whi, plo, phi := 1.0, 0.0, 1.0, 0.0
		for seed := uint64(1); seed <= 20; seed++ {
			p := learn.Params
			p.Seed = seed
			s := run(t, p, nil)
			eu, le = eu+s.ErrEuclid/20, le+s.ErrLearn/20
			check("learn", "better than Euclid on every split", s.ErrLearn < s.ErrEuclid, seed, s.ErrLearn, s.ErrEuclid)
			var signal, all float64
			for i := 0; i < s.D; i++ {
				all += s.A[i*s.D+i]
				if i < 2 {
					signal += s.A[i*s.D+i]
				}
			}
			wlo, whi = min(wlo, signal/all), max(whi, signal/all)
			plo, phi = min(plo, s.SuspectPrecision), max(phi, s.SuspectPrecision)
		}
		check("learn", "over 20 seeds: 1.1 % against 10.8 %; weight 40–46 %; suspects 92–95 %",
			pct(le) == 1.1 && pct(eu) == 10.8 && math.Round(wlo*100) == 40 && math.Round(whi*100) == 46 && math.Round(plo*100) == 92 && math.Round(phi*100) == 95,
			le, eu, wlo, whi, plo, phi)
	}

	noise, _ := PresetNamed("noise")
	clean := run(t, noise.Params, with(func(q *protocol.Train) { q.Flip = 0 }))
	r = run(t, noise.Params, nil)
	best := run(t, noise.Params, with(func(q *protocol.Train) { q.Method, q.Tol = "bestcase", CompareTol }))
	eta1 := run(t, noise.Params, with(func(q *protocol.Train) { q.Eta = 1 }))
	say("noise", "0 % error")
	say("noise", "worst of twenty: it errs on 11.1 %, worse than Euclid's 3.7 %")
	say("noise", "averages 3.1 % and Euclid 4.3 %")
	say("noise", "27 held-out rows")
	say("noise", "(89 to 96 %; 95 % here)")
	say("noise", "errs on 0 % here and about 3 % over the twenty")
	check("noise", "0 % without noise", pct(clean.ErrLearn) == 0, clean.ErrLearn)
	check("noise", "11.1 % against Euclid's 3.7 % on 27 rows", pct(r.ErrLearn) == 11.1 && pct(r.ErrEuclid) == 3.7 && len(r.Test) == 27, r.ErrLearn, r.ErrEuclid, len(r.Test))
	check("noise", "the budget does not bind; η changes nothing", !r.BudgetActive && eta1.ErrLearn == r.ErrLearn, r.BudgetActive, eta1.ErrLearn)
	check("noise", "95 % of suspects swapped", math.Round(r.SuspectPrecision*100) == 95, r.SuspectPrecision)
	check("noise", "best case 0 %", pct(best.ErrLearn) == 0, best.ErrLearn)
	// Over seeds 1 to 20: this split is the learned metric's worst against
	// Euclid; the means; the suspects' precision on every split.
	var eu, le, bc float64
	lo, hi := 1.0, 0.0
	wins, losses := 0, 0 // the learned metric against Euclid, split by split
	for seed := uint64(1); seed <= 20; seed++ {
		p := noise.Params
		p.Seed = seed
		s := r
		if seed > 1 {
			s = run(t, p, nil)
		}
		b := best
		if seed > 1 {
			b = run(t, p, with(func(q *protocol.Train) { q.Method, q.Tol = "bestcase", CompareTol }))
		}
		eu, le, bc = eu+s.ErrEuclid/20, le+s.ErrLearn/20, bc+b.ErrLearn/20
		lo, hi = min(lo, s.SuspectPrecision), max(hi, s.SuspectPrecision)
		switch {
		case s.ErrLearn < s.ErrEuclid:
			wins++
		case s.ErrLearn > s.ErrEuclid:
			losses++
		}
		check("noise", "seed 1 the worst split", s.ErrLearn-s.ErrEuclid <= r.ErrLearn-r.ErrEuclid, seed, s.ErrLearn, s.ErrEuclid)
		check("noise", "the budget binds on no split", !s.BudgetActive && !s.Collapsed, seed)
	}
	// The best case is a local optimum, which rounding moves: 3.3 %
	// natively, 3.0 % in the page (js/wasm sums round otherwise).
	check("noise", "over 20 seeds: 3.1 %, Euclid 4.3 %, best case about 3 %", pct(le) == 3.1 && pct(eu) == 4.3 && math.Abs(bc-0.03) < 0.005, le, eu, bc)
	check("noise", "suspects 89 to 96 % swapped", math.Round(lo*100) == 89 && math.Round(hi*100) == 96, lo, hi)
	// "Neither is shown better": the paired sign test over the splits
	// that differ, two-sided, is far from 5 %.
	n, k := wins+losses, min(wins, losses)
	tail := 0.0
	for i := 0; i <= k; i++ {
		tail += math.Exp(lgamma(n+1)-lgamma(i+1)-lgamma(n-i+1)) / math.Pow(2, float64(n))
	}
	check("noise", "neither shown better (sign test)", 2*tail > 0.2, wins, losses, 2*tail)

	eta, _ := PresetNamed("eta")
	say("eta", "(4.2 % error)")
	say("eta", "from 1.07 to 0.12")
	say("eta", "just 0.02 % below that of A = 0")
	say("eta", "At η = 0.6 it does: A = 0")
	var top08 float64
	for _, e := range []float64{1, 0.9, 0.8} {
		r := run(t, eta.Params, with(func(q *protocol.Train) { q.Eta = e }))
		check("eta", "η ≥ 0.8: 4.2 %, not binding", pct(r.ErrLearn) == 4.2 && !r.BudgetActive && !r.Collapsed, e, r.ErrLearn, r.BudgetActive)
		top08 = r.Eigen[0]
	}
	r = run(t, eta.Params, nil)
	below := (r.Budget - r.Primal) / r.Budget // P(0) = m = Nη
	check("eta", "η = 0.7 binds; λ_max 1.07 → 0.12 (ninefold); 0.02 % below P(0)",
		r.BudgetActive && !r.Collapsed && math.Round(top08*100) == 107 && math.Round(r.Eigen[0]*100) == 12 && math.Round(top08/r.Eigen[0]) == 9 && math.Round(below*1e4) == 2,
		r.BudgetActive, top08, r.Eigen[0], below)
	r = run(t, eta.Params, with(func(q *protocol.Train) { q.Eta = 0.6 }))
	check("eta", "η = 0.6 collapses", r.Collapsed, r.Eigen[0])
	say("eta", "over seeds 1 to 20, η = 0.8 binds on none, η = 0.7 on 6, and η = 0.6 collapses on all twenty")
	if overSeeds {
		b8, b7, c6 := 0, 0, 0
		for seed := uint64(1); seed <= 20; seed++ {
			p := eta.Params
			p.Seed = seed
			at := func(e float64) *protocol.Result { return run(t, p, with(func(q *protocol.Train) { q.Eta = e })) }
			r8, r7, r6 := at(0.8), at(0.7), at(0.6)
			if r8.BudgetActive {
				b8++
			}
			if r7.BudgetActive && !r7.Collapsed {
				b7++
			}
			if r6.Collapsed {
				c6++
			}
		}
		check("eta", "over 20 seeds: binds at 0.8 on none, at 0.7 on 6; 0.6 collapses on all", b8 == 0 && b7 == 6 && c6 == 20, b8, b7, c6)
	}

	col, _ := PresetNamed("collapse")
	say("collapse", "no learned error to show")
	say("collapse", "(7.4 % here)")
	say("collapse", "Over seeds 1 to 20, η = 0.6 collapses on every split and η = 0.8 on none, with 4.3 % error on average")
	r = run(t, col.Params, nil)
	check("collapse", "η = 0.6 collapses to A = 0", r.Collapsed && rank(r) == 0, r.Collapsed, r.Eigen)
	r = run(t, col.Params, with(func(q *protocol.Train) { q.Eta = 0.8 }))
	check("collapse", "η = 0.8: back, 7.4 %", !r.Collapsed && pct(r.ErrLearn) == 7.4, r.Collapsed, r.ErrLearn)
	if overSeeds {
		c6, c8 := 0, 0
		var e8 float64
		for seed := uint64(1); seed <= 20; seed++ {
			p := col.Params
			p.Seed = seed
			if run(t, p, nil).Collapsed {
				c6++
			}
			r8 := run(t, p, with(func(q *protocol.Train) { q.Eta = 0.8 }))
			if r8.Collapsed {
				c8++
			}
			e8 += r8.ErrLearn / 20
		}
		check("collapse", "over 20 seeds: 0.6 collapses on all, 0.8 on none, 4.3 %", c6 == 20 && c8 == 0 && pct(e8) == 4.3, c6, c8, e8)
	}
}

func lgamma(n int) float64 { v, _ := math.Lgamma(float64(n)); return v }
