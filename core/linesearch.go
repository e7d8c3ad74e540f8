package core

import "math"

// The one backtracking line search of the solvers: FISTA's (the fast
// method's, Xing's, the smoothed LMNN's), which grows a curvature estimate
// until a quadratic model holds, and projected gradient's, which shrinks a
// step until Armijo's condition holds. The methods form their own trial
// points; the search counts the trials and gives up after maxTries.

// backtrack runs a backtracking line search on the scale *k: trial forms
// and evaluates the trial point for k and reports whether the test accepts
// it; after each rejection k is multiplied by grow (above 1 for a
// curvature, below 1 for a step). On success *k is the accepted scale; it
// fails with errBacktrack after maxTries trials, or with trial's error.
func backtrack(k *float64, grow float64, trial func(k float64) (bool, error)) error {
	for try := 0; try < maxTries; try++ {
		ok, err := trial(*k)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		*k *= grow
	}
	return errBacktrack
}

// underModel is FISTA's sufficient-decrease test for a step from y to x
// with curvature l: with lin = ⟨∇f(y), x − y⟩ and sq = ‖x − y‖² (in the
// step's norm),
//
//	f(x) ≤ f(y) + lin + l/2 · sq,
//
// up to slack·|f(y)| of rounding; a step of length 0 passes.
func underModel(fx, fy, lin, sq, l, slack float64) bool {
	model := fy + lin + l/2*sq
	return fx <= model+slack*math.Abs(fy) || sq == 0
}
