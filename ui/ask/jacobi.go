package ask

import "math"

// eigenSym returns the eigenvalues of the symmetric d×d matrix a
// (row-major), descending, and the unit eigenvectors as the rows of vecs,
// by cyclic Jacobi rotations. The page links no gonum (the root's
// TestPageLinks), and its matrices here are the items' few features
// square: Jacobi's sweeps, each O(d³), converge quadratically and need no
// more than this. TestEigenSym checks it against gonum's.
func eigenSym(a []float64, d int) (vals []float64, vecs [][]float64) {
	m := append([]float64(nil), a...)
	v := make([]float64, d*d)
	for i := range d {
		v[i*d+i] = 1
	}
	for sweep := 0; sweep < 50; sweep++ {
		var off, scale float64
		for i := range d {
			for j := range d {
				if i != j {
					off += m[i*d+j] * m[i*d+j]
				}
				scale += m[i*d+j] * m[i*d+j]
			}
		}
		if off <= 1e-30*scale || off == 0 {
			break
		}
		for p := 0; p < d; p++ {
			for q := p + 1; q < d; q++ {
				apq := m[p*d+q]
				if apq == 0 {
					continue
				}
				// The rotation that zeroes m[p][q]: t = tan θ from
				// cot 2θ = (a_qq − a_pp) / (2 a_pq), the smaller root.
				theta := (m[q*d+q] - m[p*d+p]) / (2 * apq)
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := range d { // columns p and q
					kp, kq := m[k*d+p], m[k*d+q]
					m[k*d+p], m[k*d+q] = c*kp-s*kq, s*kp+c*kq
				}
				for k := range d { // rows p and q
					pk, qk := m[p*d+k], m[q*d+k]
					m[p*d+k], m[q*d+k] = c*pk-s*qk, s*pk+c*qk
				}
				for k := range d {
					kp, kq := v[k*d+p], v[k*d+q]
					v[k*d+p], v[k*d+q] = c*kp-s*kq, s*kp+c*kq
				}
			}
		}
	}
	order := make([]int, d)
	for i := range order {
		order[i] = i
	}
	for i := 1; i < d; i++ { // insertion sort, descending
		for j := i; j > 0 && m[order[j]*d+order[j]] > m[order[j-1]*d+order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, c := range order {
		vals = append(vals, m[c*d+c])
		vec := make([]float64, d)
		for k := range d {
			vec[k] = v[k*d+c]
		}
		vecs = append(vecs, vec)
	}
	return vals, vecs
}
