package store

import (
	"slices"
	"testing"
)

// pick, step by step through batches as the pool meets them: lane 0 takes
// the first job, the helpers the cold jobs before the last group, a warm
// job goes on the lane of the run before it once that run has ended, and
// the last group (its cold job and the warm ones after it) waits for lane 0.
func TestLanesPick(t *testing.T) {
	const c, w = false, true
	type move struct {
		lane int
		want int // the job it takes (-1: none)
		end  int // then end this job's run (-1: none)
	}
	for _, tc := range []struct {
		name  string
		warm  []bool
		moves []move
	}{
		{"cold jobs", []bool{c, c, c}, []move{
			{0, 0, -1}, {1, 1, -1}, {1, -1, 1}, // job 2 is the last group: lane 0's
			{1, -1, 0}, {0, 2, -1},
		}},
		{"a warm chain after each cold job", []bool{c, w, c, w}, []move{
			{0, 0, -1}, {1, -1, -1}, // job 1 follows job 0, job 2 is the last group
			{0, -1, 0}, {1, -1, -1}, {0, 1, 1}, {0, 2, 2}, {0, 3, -1},
		}},
		{"a chain on a helper", []bool{c, c, w, c}, []move{
			{0, 0, -1}, {1, 1, -1}, {1, -1, 1}, // job 2 goes on from job 1, on lane 1
			{0, -1, 0}, {1, 2, 2}, {1, -1, -1}, {0, 3, -1},
		}},
		{"a warm first job (Step) only on lane 0", []bool{w, w}, []move{
			{1, -1, -1}, {0, 0, 0}, {1, -1, -1}, {0, 1, -1},
		}},
	} {
		l := lanes{inflight: map[int]int{}}
		for _, wm := range tc.warm {
			l.jobs = append(l.jobs, Job{Warm: wm})
		}
		id := 0
		for k, m := range tc.moves {
			got := -1
			if !l.busy(m.lane) {
				got = l.pick(m.lane)
			}
			if got != m.want {
				t.Errorf("%s, move %d: lane %d took job %d; want %d", tc.name, k, m.lane, got, m.want)
				break
			}
			if got >= 0 {
				id++
				l.begin(got, id, m.lane)
			}
			if m.end >= 0 {
				if lane, ok := l.end(l.jobs[m.end].id); !ok || lane != l.jobs[m.end].lane {
					t.Errorf("%s, move %d: ending job %d: lane %d, %v", tc.name, k, m.end, lane, ok)
				}
			}
		}
	}
}

// on lists a lane's runs in the order they were asked for; ahead names the
// runs of jobs after the one shown.
func TestLanesOnAhead(t *testing.T) {
	l := lanes{jobs: make([]Job, 4), cur: 1, inflight: map[int]int{}}
	l.begin(0, 7, 0)
	l.begin(1, 9, 1)
	l.begin(3, 8, 1)
	if got := l.on(1); !slices.Equal(got, []int{8, 9}) {
		t.Errorf("lane 1 runs %v; want [8 9]", got)
	}
	for id, want := range map[int]bool{7: false, 9: false, 8: true, 5: false} {
		if l.ahead(id) != want {
			t.Errorf("run %d ahead: %v; want %v", id, !want, want)
		}
	}
	if _, ok := l.end(5); ok {
		t.Error("ended a run that never began")
	}
}

// longestFirst sorts the cold jobs between the first chain and the last
// group by the seconds they took, longest first, and leaves the order as it
// is when one of them has not run before.
func TestLongestFirst(t *testing.T) {
	jobs := func() []Job {
		return []Job{{Eta: 1}, {Eta: 0.95, Warm: true}, {Eta: 0.9}, {Eta: 0.8}, {Eta: 0.7}, {Eta: 0.6}}
	}
	took := map[float64]float64{1: 9, 0.95: 9, 0.9: 1, 0.8: 3, 0.7: 2, 0.6: 9}
	etas := func(js []Job) []float64 {
		var e []float64
		for _, j := range js {
			e = append(e, j.Eta)
		}
		return e
	}
	js := jobs()
	longestFirst(js, func(j Job) (float64, bool) { t, ok := took[j.Eta]; return t, ok })
	if got, want := etas(js), []float64{1, 0.95, 0.8, 0.7, 0.9, 0.6}; !slices.Equal(got, want) {
		t.Errorf("ordered %v; want %v", got, want)
	}
	delete(took, 0.7)
	js = jobs()
	longestFirst(js, func(j Job) (float64, bool) { t, ok := took[j.Eta]; return t, ok })
	if got, want := etas(js), etas(jobs()); !slices.Equal(got, want) {
		t.Errorf("one job not timed: ordered %v; want %v", got, want)
	}
}
