package core

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// AlignTo sets dst (n×2) to the 2-D coordinates y turned, or mirrored, to
// lie as close as possible to ref: y·R for the orthogonal R that minimises
// ‖y·R − ref‖_F (the orthogonal Procrustes problem, Schönemann 1966).
//
// Distances between rows are unchanged, so a projection stays a picture of
// its metric; only its orientation follows ref. The page draws a run's
// learned view many times as the metric changes, and the principal axes'
// signs and order (Project) can flip from one metric to the next: each
// frame aligned to the last neither flips nor spins. With y or ref zero
// (a metric collapsed to A = 0) y is copied as it is. dst may be y.
//
// The general solution is R = U Vᵀ from the SVD yᵀref = U Σ Vᵀ; in two
// dimensions it has a closed form, used here because gonum's SVD would
// bring LAPACK's whole SVD (about 120 kB gzipped) into the page's program
// for a 2×2 matrix. With M = yᵀref, ‖y·R − ref‖² = const − 2·tr(Rᵀ M); over
// the rotations R(θ) = [c −s; s c], tr(Rᵀ M) = c(M₁₁+M₂₂) + s(M₂₁−M₁₂),
// largest at θ = atan2(M₂₁−M₁₂, M₁₁+M₂₂); over the reflections
// [c s; s −c], it is c(M₁₁−M₂₂) + s(M₁₂+M₂₁), largest at
// θ = atan2(M₁₂+M₂₁, M₁₁−M₂₂). The larger of the two maxima wins.
func AlignTo(dst, y, ref *mat.Dense) {
	n, c := y.Dims()
	if rn, rc := ref.Dims(); rn != n || rc != 2 || c != 2 {
		panic("core: AlignTo: y and ref must both be n×2")
	}
	var m mat.Dense
	m.Mul(y.T(), ref)
	m11, m12, m21, m22 := m.At(0, 0), m.At(0, 1), m.At(1, 0), m.At(1, 1)
	rot := math.Hypot(m11+m22, m21-m12)
	refl := math.Hypot(m11-m22, m12+m21)
	if dst.IsEmpty() {
		dst.ReuseAs(n, 2)
	}
	if rot == 0 && refl == 0 {
		if dst != y {
			dst.Copy(y)
		}
		return
	}
	var r *mat.Dense
	if rot >= refl {
		th := math.Atan2(m21-m12, m11+m22)
		cs, sn := math.Cos(th), math.Sin(th)
		r = mat.NewDense(2, 2, []float64{cs, -sn, sn, cs})
	} else {
		th := math.Atan2(m12+m21, m11-m22)
		cs, sn := math.Cos(th), math.Sin(th)
		r = mat.NewDense(2, 2, []float64{cs, sn, sn, -cs})
	}
	var out mat.Dense
	out.Mul(y, r)
	dst.Copy(&out)
}
