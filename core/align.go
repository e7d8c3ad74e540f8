package core

import "gonum.org/v1/gonum/mat"

// AlignTo sets dst (n×2) to the 2-D coordinates y turned, or mirrored, to
// lie as close as possible to ref: y·R for the orthogonal R that minimises
// ‖y·R − ref‖_F (the orthogonal Procrustes problem, Schönemann 1966):
//
//	yᵀ ref = U Σ Vᵀ  ⇒  R = U Vᵀ.
//
// Distances between rows are unchanged, so a projection stays a picture of
// its metric; only its orientation follows ref. The page draws a run's
// learned view many times as the metric changes, and the principal axes'
// signs and order (Project) can flip from one metric to the next: each
// frame aligned to the last neither flips nor spins. With y or ref zero
// (a metric collapsed to A = 0) y is copied as it is. dst may be y.
func AlignTo(dst, y, ref *mat.Dense) {
	n, c := y.Dims()
	if rn, rc := ref.Dims(); rn != n || rc != 2 || c != 2 {
		panic("core: AlignTo: y and ref must both be n×2")
	}
	var m mat.Dense
	m.Mul(y.T(), ref)
	var svd mat.SVD
	if mat.Norm(&m, 1) == 0 || !svd.Factorize(&m, mat.SVDFull) {
		if dst != y {
			dst.CloneFrom(y)
		}
		return
	}
	var u, v, r mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	r.Mul(&u, v.T())
	var out mat.Dense
	out.Mul(y, &r)
	if dst.IsEmpty() {
		dst.ReuseAs(n, 2)
	}
	dst.Copy(&out)
}
