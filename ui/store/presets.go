package store

import "github.com/rml-lab/rml/spec"

// A Preset is a lesson: settings chosen by measurement (seed 1, the page's
// 85/15 split) and what to look for in them, with what holds over seeds 1
// to 20. Every number a preset's text states is checked by
// TestPresetClaims, on the same code the worker runs.
type Preset struct {
	Key    string // the link's #preset= value
	Title  string
	Params Params
	Text   string
}

// apply sets p to the lesson's settings; the view (how the page shows
// itself) stays.
func (pr Preset) apply(p *Params) {
	view := p.View
	*p = pr.Params
	p.Preset, p.View = pr.Key, view
}

// Synthetic is the built-in teaching dataset's name (wasm/session).
const Synthetic = "Synthetic: 2 signal + 18 noise"

func lesson(data string, flip, eta, lambda float64) Params {
	return Params{Dataset: data, KSame: spec.KSame, KDiff: spec.KDiff, Flip: flip, Eta: eta, Lambda: lambda, Method: spec.Fast, Tol: spec.Tol, Seed: 1}
}

// Presets are the lessons, the first one what a first visit shows.
var Presets = []Preset{
	{"learn", "What a learned metric does", lesson(Synthetic, 0.2, 0.8, 16),
		"Two features carry the classes and eighteen are noise, and a fifth of the triplets are swapped. " +
			"Euclidean 5-NN errs on 12.2 % of the 90 held-out rows, the learned metric on none of them: A puts 42 % of its weight (its trace) on the two signal features, whose share of the Euclidean metric is 10 %. " +
			"Watch the learned view pull the classes apart as it trains. Of the triplets it believes least, 93 % are swapped ones — the suspects list below. " +
			"This split is not a lucky one: over seeds 1 to 20 the learned metric errs on 1.1 % against Euclid's 10.8 %, better on every split, with 40 to 46 % of its weight on the signal and 92 to 95 % of its suspects swapped."},
	{"noise", "Noise on one split, and on twenty", lesson("Wine", 0.2, 0.8, 16),
		"Wine is easy without noise (set the noise to 0: 0 % error). With a fifth of the triplets swapped, this split is the learned metric's worst of twenty: it errs on 11.1 %, worse than Euclid's 3.7 %. " +
			"Change the seed and it differs: over seeds 1 to 20 the learned metric averages 3.1 % and Euclid 4.3 %, and with 27 held-out rows, a step of 3.7 %, neither is shown better. " +
			"The robust budget does not bind, so η changes nothing here. What holds on every split: most of the triplets the metric believes least are swapped ones (89 to 96 %; 95 % here), " +
			"and the best case, which trusts only the triplets it explains best, errs on 0 % here and about 3 % over the twenty."},
	{"eta", "Where η changes the answer", lesson("Iris", 0.2, 0.7, 16),
		"With a fifth of the triplets swapped, η from 1 down to 0.8 gives the same metric (4.2 % error): the budget Σq ≤ Nη does not bind, and the robust problem is plain hinge-loss learning. " +
			"On this split, at η = 0.7 it binds: the worst case counts only the 70 % of triplets that cost most, A shrinks ninefold (its largest eigenvalue from 1.07 to 0.12), and its objective is just 0.02 % below that of A = 0 — the worst case all but gives up. At η = 0.6 it does: A = 0. " +
			"Where the budget starts to bind depends on the split: over seeds 1 to 20, η = 0.8 binds on none, η = 0.7 on 6, and η = 0.6 collapses on all twenty. " +
			"Run the η sweep to see the regimes; rml sweep found no setting where a binding budget helps (docs/regime.md)."},
	{"collapse", "Where the worst case gives up: A = 0", lesson("Wine", 0.3, 0.6, 16),
		"With 30 % of the triplets swapped and η = 0.6, the metric collapses to A = 0: every distance is 0, so there is no learned error to show. " +
			"A = 0 gives every triplet loss 1, so the worst-case sum is exactly Nη; a real metric makes the swapped triplets cost more than 1 each, and the worst case counts them. " +
			"Raise η to 0.8 and the metric is back (7.4 % here). Over seeds 1 to 20, η = 0.6 collapses on every split and η = 0.8 on none, with 4.3 % error on average. The η sweep marks where the budget binds and where A collapses."},
}

// PresetNamed returns the preset with that key.
func PresetNamed(key string) (Preset, bool) {
	for _, p := range Presets {
		if p.Key == key {
			return p, true
		}
	}
	return Preset{}, false
}
