// Package core learns a Mahalanobis metric from noisy triplet side information
// by the robust formulation of Huang, Jin, Xu and Liu, "Robust Metric Learning
// by Smooth Optimization" (UAI 2010).
//
// A triplet (x, y, z) says "x is closer to y than to z". When a fraction
// 1 − η of the N triplets may be wrong, the robust primal problem is
//
//	P(A) = λ/2 ‖A‖_F² + max_{q ∈ Q̂(η)} Σ q_i (1 − tr(A K_i))_+ ,  A ⪰ 0,
//
// with K_i = u_i u_iᵀ − v_i v_iᵀ, u_i = x_i − z_i, v_i = x_i − y_i and
// Q̂(η) = {q ∈ [0,1]^N : Σ q_i ≤ Nη}. Its dual, solved here, is
//
//	L(q) = −Σ q_i + 1/(2λ) ‖π₊(Σ q_i K_i)‖_F² ,  q ∈ Q̂(η),
//
// and the metric is A(q) = π₊(Σ q_i K_i)/λ. Every method reports the duality
// gap Δ = L(q) + P(A) ≥ 0, a certificate of how far both points are from the
// optimum.
//
// The package is organised as the data flows: a CSV is parsed into a Dataset
// (ReadCSV), standardized and split; triplets are drawn from the labels
// (LabelTriplets) or read from a file (ReadTriplets) and optionally corrupted
// (Flip); a Problem is solved by Solve with one of the Methods (Fast,
// Nesterov, Gradient); the resulting metric is used for kNN classification
// (KNNError), for a 2-D view (Project) and for ranking suspect triplets
// (Suspects).
//
// The package never touches the browser: the web worker in ../wasm calls it
// the same way the command line in ../cmd/rml does.
package core
