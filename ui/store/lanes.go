package store

import (
	"cmp"
	"slices"
)

// lanes is the pool's scheduler: a batch's jobs, the one the views show,
// and which lane (worker) runs which. It only chooses: State turns its
// choices into requests and replays the replies in the batch's order.
//
// Lane 0 is the worker that holds the page's warm state: a warm job goes on
// from the run before it, so it runs on that run's lane; the last group of
// a batch (its last cold job and the warm ones after it) runs on lane 0, so
// that the state left behind is the one a single worker would leave.
type lanes struct {
	jobs     []Job       // the batch (State's Job and Queue point into it)
	cur      int         // the index of the job the views show
	inflight map[int]int // runs not yet ended: request id → lane
}

// pick chooses the job lane takes next, or -1: first a warm job whose
// predecessor lane has just run, else the first job not yet started
// (lane 0 only for a warm first job, which starts from lane 0's last run,
// and for the last group).
func (l *lanes) pick(lane int) int {
	last := 0 // where the last group starts
	for i, j := range l.jobs {
		if !j.Warm {
			last = i
		}
	}
	for i := max(l.cur, 1); i < len(l.jobs); i++ {
		j, prev := l.jobs[i], l.jobs[i-1]
		if j.id == 0 && j.Warm && prev.id != 0 && prev.lane == lane && !l.running(prev.id) {
			return i
		}
	}
	for i := max(l.cur, 0); i < len(l.jobs); i++ {
		j := l.jobs[i]
		switch {
		case j.id != 0, j.Warm && i > 0:
		case lane != 0 && (j.Warm || i >= last):
		default:
			return i
		}
	}
	return -1
}

// running says whether run id has started and not ended.
func (l *lanes) running(id int) bool { _, ok := l.inflight[id]; return ok }

// busy says whether lane runs a job.
func (l *lanes) busy(lane int) bool {
	for _, on := range l.inflight {
		if on == lane {
			return true
		}
	}
	return false
}

// begin starts job i as run id on lane.
func (l *lanes) begin(i, id, lane int) {
	j := &l.jobs[i]
	j.id, j.lane = id, lane
	l.inflight[id] = lane
}

// end ends run id and returns its lane, if it was running.
func (l *lanes) end(id int) (lane int, ok bool) {
	lane, ok = l.inflight[id]
	delete(l.inflight, id)
	return lane, ok
}

// on returns the runs on lane, in the order they were asked for.
func (l *lanes) on(lane int) []int {
	var ids []int
	for id, on := range l.inflight {
		if on == lane {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// ahead says whether run id is a job after the one the views show.
func (l *lanes) ahead(id int) bool {
	for i := l.cur + 1; i < len(l.jobs); i++ {
		if l.jobs[i].id == id {
			return true
		}
	}
	return false
}

// longestFirst orders the cold runs of a sweep that may run on any lane
// (after the first and its warm chain, before the last, which runs on
// lane 0: pick) by the seconds each took in the last sweep of the dataset
// that ran it, longest first, if every one of them has run. The lanes
// take jobs in order, so the longest start first and the shortest fill
// the end; an order fixed in advance cannot be: on Wine's noise lesson the
// best case took longest at η = 0.5 natively and at η = 0.9 under js/wasm
// (their outer steps differ with the order of the sums), and with the
// best case at η = 0.9 … 0.5 after LMNN and Xing the second worker ran
// nothing for the last 141 of a traced sweep's 769 ms (e2e TestFigures).
// The order changes when each run starts, never what it computes, so the
// results are those of the fixed order.
func longestFirst(jobs []Job, took func(Job) (float64, bool)) {
	lo := 1
	for lo < len(jobs) && jobs[lo].Warm {
		lo++
	}
	hi := len(jobs) - 1
	for hi > lo && jobs[hi].Warm {
		hi--
	}
	if hi-lo < 2 {
		return
	}
	mid := jobs[lo:hi]
	for _, j := range mid {
		if _, ok := took(j); !ok || j.Warm {
			return
		}
	}
	slices.SortStableFunc(mid, func(a, b Job) int {
		ta, _ := took(a)
		tb, _ := took(b)
		return cmp.Compare(tb, ta)
	})
}
