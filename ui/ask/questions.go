package ask

import (
	"math"
	"math/rand/v2"
)

// Kind is what a question is for.
type Kind int

const (
	Train   Kind = iota // its answer is a triplet the metric learns from
	HeldOut             // kept aside: the metric's agreement is measured on it
	Repeat              // an earlier question again, its candidates swapped
)

// Question asks which of Left and Right is more like Anchor (item indices).
type Question struct {
	Anchor, Left, Right int
	Kind                Kind
	Of                  int // a Repeat: the index of the answer it asks again
}

// Choice is an answer: the left candidate, the right one, or can't tell.
type Choice int

const (
	Skip Choice = iota
	Left
	Right
)

// Answer is a question and its answer.
type Answer struct {
	Question
	Choice Choice
}

// Triplet is the answer as (anchor, the candidate chosen, the other); ok
// is false when the person could not tell.
func (a Answer) Triplet() (i, j, k int, ok bool) {
	switch a.Choice {
	case Left:
		return a.Anchor, a.Left, a.Right, true
	case Right:
		return a.Anchor, a.Right, a.Left, true
	}
	return 0, 0, 0, false
}

// The schedule: every RepeatEvery-th question asks an earlier one again
// (for the error rate), and every HeldOutEvery-th of the others is kept
// aside (for the agreement); the rest train.
const (
	RepeatEvery  = 10
	HeldOutEvery = 5
	// ActivePool is how many random questions an active choice looks at.
	ActivePool = 40
)

// Asker asks the questions and keeps the answers.
type Asker struct {
	Items   *Items
	Active  bool // training questions where the metric is least sure
	Answers []Answer
}

// Dist is a metric's squared distance between two items.
type Dist func(i, j int) float64

// Next is the next question, number len(a.Answers): a repeat, a held-out
// question or a training one by the schedule. A training question is
// random, or, when a.Active and dist is set, the least sure of ActivePool
// random ones under dist (the smallest |d(a,l) − d(a,r)| / (d(a,l) + d(a,r))):
// the pool keeps some randomness. It depends only on the items' seed, the
// answers so far and dist.
func (a *Asker) Next(dist Dist) Question {
	n := len(a.Answers)
	rng := rand.New(rand.NewPCG(a.Items.Seed, uint64(n)+0x61736b)) // "ask"
	if n%RepeatEvery == RepeatEvery-1 {
		var earlier []int
		for i, ans := range a.Answers {
			if ans.Kind != Repeat && ans.Choice != Skip {
				earlier = append(earlier, i)
			}
		}
		if len(earlier) > 0 {
			i := earlier[rng.IntN(len(earlier))]
			q := a.Answers[i].Question
			return Question{Anchor: q.Anchor, Left: q.Right, Right: q.Left, Kind: Repeat, Of: i}
		}
	}
	if n%HeldOutEvery == HeldOutEvery-3 {
		q := a.random(rng)
		q.Kind = HeldOut
		return q
	}
	if !a.Active || dist == nil {
		return a.random(rng)
	}
	best, sure := Question{}, math.Inf(1)
	for range ActivePool {
		q := a.random(rng)
		dl, dr := dist(q.Anchor, q.Left), dist(q.Anchor, q.Right)
		s := 0.0
		if dl+dr > 0 {
			s = math.Abs(dl-dr) / (dl + dr)
		}
		if s < sure {
			best, sure = q, s
		}
	}
	return best
}

// random is a question on three different items drawn uniformly.
func (a *Asker) random(rng *rand.Rand) Question {
	n := a.Items.Len()
	x := rng.IntN(n)
	l := rng.IntN(n - 1)
	if l >= x {
		l++
	}
	r := rng.IntN(n - 2)
	for _, v := range sortedPair(x, l) {
		if r >= v {
			r++
		}
	}
	return Question{Anchor: x, Left: l, Right: r}
}

func sortedPair(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

// Triplets are the training answers as triplets (anchor, chosen, other):
// what the metric learns from.
func (a *Asker) Triplets() [][3]int {
	var out [][3]int
	for _, ans := range a.Answers {
		if i, j, k, ok := ans.Triplet(); ok && ans.Kind == Train {
			out = append(out, [3]int{i, j, k})
		}
	}
	return out
}

// All are the answers that were not skipped, as triplets, in the order
// asked: training, held-out and repeated questions alike (the answers'
// file).
func (a *Asker) All() [][3]int {
	var out [][3]int
	for _, ans := range a.Answers {
		if i, j, k, ok := ans.Triplet(); ok {
			out = append(out, [3]int{i, j, k})
		}
	}
	return out
}

// Agrees is the share of triplets (anchor, chosen, other) that dist gives
// alike, a tie counting half; NaN for none.
func Agrees(ts [][3]int, dist Dist) float64 {
	if len(ts) == 0 {
		return math.NaN()
	}
	var agree float64
	for _, t := range ts {
		switch dj, dk := dist(t[0], t[1]), dist(t[0], t[2]); {
		case dj < dk:
			agree++
		case dj == dk:
			agree += 0.5
		}
	}
	return agree / float64(len(ts))
}

// Agreement is the share of the held-out answers (those not skipped) that
// dist gives as the person did, a tie counting half, and their number.
func (a *Asker) Agreement(dist Dist) (share float64, n int) {
	var held [][3]int
	for _, ans := range a.Answers {
		if i, j, k, ok := ans.Triplet(); ok && ans.Kind == HeldOut {
			held = append(held, [3]int{i, j, k})
		}
	}
	return Agrees(held, dist), len(held)
}
