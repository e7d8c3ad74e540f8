// Adapted from gonum v0.17.0's lapack/gonum/dsteqr.go and dsyev.go:
//
// Copyright ©2016 The Gonum Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package core

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// The symmetric eigensolver of evaluator.eigen for every eigenvector
// (d < partialMinDim, and where the partial route fails its check):
// gonum's Dsyev (Dsytrd, Dorgtr, Dsteqr) with one
// change, in how Dsteqr applies its plane rotations to the eigenvectors.
//
// Each QL or QR sweep of Dsteqr rotates neighbouring columns j, j+1 of the
// d×d matrix Z by a sequence of rotations, LAPACK's Dlasr with side Right.
// Gonum's Dlasr, written for LAPACK's column-major layout, loops over the
// rotations and, inside, over the rows: on gonum's row-major Z every access
// jumps a row. Rows do not interact, so each row can take the whole
// sequence in turn instead (rotateColumns): one pass along a contiguous
// row, the column carried from one rotation to the next in a register,
// four rows at a time. Every entry sees the same operations in the same
// order, so the results are gonum's to the bit (TestSyevMatchesGonum).
// BenchmarkEigen's dsyev rows against its gonum-dsyev rows: Sonar's M 361
// against 440 µs natively (docs/solver.md).

// rotateColumns applies the plane rotations (c_j, s_j) to the columns j and
// j+1 of the m×n matrix a, j = 0 … n−2 in that order if forward, else
// j = n−2 … 0: LAPACK's Dlasr with side Right and pivot Variable,
//
//	(a_{i,j+1}, a_{i,j}) ← (c_j a_{i,j+1} − s_j a_{i,j},  s_j a_{i,j+1} + c_j a_{i,j}),
//
// row by row. A rotation with c = 1 and s = 0 is skipped, as Dlasr skips it.
func rotateColumns(forward bool, m, n int, c, s, a []float64, lda int) {
	if m == 0 || n < 2 {
		return
	}
	c, s = c[:n-1], s[:n-1]
	i := 0
	// Four rows at a time: four independent chains, so that each rotation's
	// multiply-adds do not wait on the last one's (one row at a time was
	// slower than gonum's column order, bound by that latency).
	for ; i+4 <= m; i += 4 {
		r0, r1, r2, r3 := a[i*lda:i*lda+n], a[(i+1)*lda:(i+1)*lda+n], a[(i+2)*lda:(i+2)*lda+n], a[(i+3)*lda:(i+3)*lda+n]
		if forward {
			rotateRows4Forward(c, s, r0, r1, r2, r3)
		} else {
			rotateRows4Backward(c, s, r0, r1, r2, r3)
		}
	}
	for ; i < m; i++ {
		if forward {
			rotateRowForward(c, s, a[i*lda:i*lda+n])
		} else {
			rotateRowBackward(c, s, a[i*lda:i*lda+n])
		}
	}
}

// rotateRowForward is rotateColumns's forward sequence on one row of length
// len(c)+1.
func rotateRowForward(c, s, row []float64) {
	n := len(c) + 1
	row = row[:n]
	x := row[0] // column j as the rotations before j left it
	for j, cj := range c {
		sj := s[j]
		y := row[j+1]
		if cj == 1 && sj == 0 {
			row[j] = x
			x = y
			continue
		}
		row[j] = sj*y + cj*x
		x = cj*y - sj*x
	}
	row[n-1] = x
}

// rotateRowBackward is rotateColumns's backward sequence on one row of
// length len(c)+1.
func rotateRowBackward(c, s, row []float64) {
	n := len(c) + 1
	row = row[:n]
	x := row[n-1] // column j+1 as the rotations after j left it
	for j := n - 2; j >= 0; j-- {
		cj, sj := c[j], s[j]
		y := row[j]
		if cj == 1 && sj == 0 {
			row[j+1] = x
			x = y
			continue
		}
		row[j+1] = cj*x - sj*y
		x = sj*x + cj*y
	}
	row[0] = x
}

// rotateRows4Forward is rotateColumns's forward sequence on four rows of
// equal length len(c)+1.
func rotateRows4Forward(c, s, r0, r1, r2, r3 []float64) {
	n := len(c) + 1
	r0, r1, r2, r3 = r0[:n], r1[:n], r2[:n], r3[:n]
	x0, x1, x2, x3 := r0[0], r1[0], r2[0], r3[0]
	for j, cj := range c {
		sj := s[j]
		y0, y1, y2, y3 := r0[j+1], r1[j+1], r2[j+1], r3[j+1]
		if cj == 1 && sj == 0 {
			r0[j], r1[j], r2[j], r3[j] = x0, x1, x2, x3
			x0, x1, x2, x3 = y0, y1, y2, y3
			continue
		}
		r0[j], r1[j], r2[j], r3[j] = sj*y0+cj*x0, sj*y1+cj*x1, sj*y2+cj*x2, sj*y3+cj*x3
		x0, x1, x2, x3 = cj*y0-sj*x0, cj*y1-sj*x1, cj*y2-sj*x2, cj*y3-sj*x3
	}
	r0[n-1], r1[n-1], r2[n-1], r3[n-1] = x0, x1, x2, x3
}

// rotateRows4Backward is rotateColumns's backward sequence on four rows of
// equal length len(c)+1.
func rotateRows4Backward(c, s, r0, r1, r2, r3 []float64) {
	n := len(c) + 1
	r0, r1, r2, r3 = r0[:n], r1[:n], r2[:n], r3[:n]
	x0, x1, x2, x3 := r0[n-1], r1[n-1], r2[n-1], r3[n-1]
	for j := n - 2; j >= 0; j-- {
		cj, sj := c[j], s[j]
		y0, y1, y2, y3 := r0[j], r1[j], r2[j], r3[j]
		if cj == 1 && sj == 0 {
			r0[j+1], r1[j+1], r2[j+1], r3[j+1] = x0, x1, x2, x3
			x0, x1, x2, x3 = y0, y1, y2, y3
			continue
		}
		r0[j+1], r1[j+1], r2[j+1], r3[j+1] = cj*x0-sj*y0, cj*x1-sj*y1, cj*x2-sj*y2, cj*x3-sj*y3
		x0, x1, x2, x3 = sj*x0+cj*y0, sj*x1+cj*y1, sj*x2+cj*y2, sj*x3+cj*y3
	}
	r0[0], r1[0], r2[0], r3[0] = x0, x1, x2, x3
}

// syevTo computes every eigenvalue (ascending, into w) and eigenvector (the
// columns of a, overwritten) of the n×n symmetric a, its upper triangle
// read, as gonum's Dsyev with jobz = EVCompute and uplo = Upper does, and
// reports false if the QL/QR iteration did not converge. work is the
// workspace gonum's Dsyev asks for n (evaluator.allocEigen): with less,
// Dsytrd would take another route.
func syevTo(n int, a []float64, lda int, w, work []float64) bool {
	var impl gonum.Implementation
	if n == 0 {
		return true
	}
	if n == 1 {
		w[0] = a[0]
		a[0] = 1
		return true
	}
	// Dsyev's scaling of a matrix near under- or overflow.
	const (
		safmin = 0x1p-1022 // LAPACK's dlamch('S')
		eps    = 0x1p-52   // dlamch('P')
	)
	smlnum := safmin / eps
	bignum := 1 / smlnum
	rmin := math.Sqrt(smlnum)
	rmax := math.Sqrt(bignum)
	anrm := impl.Dlansy(lapack.MaxAbs, blas.Upper, n, a, lda, work)
	scaled := false
	var sigma float64
	if anrm > 0 && anrm < rmin {
		scaled = true
		sigma = rmin / anrm
	} else if anrm > rmax {
		scaled = true
		sigma = rmax / anrm
	}
	if scaled {
		impl.Dlascl(lapack.UpperTri, 0, 0, 1, sigma, n, n, a, lda)
	}
	inde, indtau := 0, n
	indwork := indtau + n
	llwork := len(work) - indwork
	impl.Dsytrd(blas.Upper, n, a, lda, w, work[inde:], work[indtau:], work[indwork:], llwork)
	impl.Dorgtr(blas.Upper, n, a, lda, work[indtau:], work[indwork:], llwork)
	if !dsteqr(n, w, work[inde:], a, lda, work[indtau:]) {
		return false
	}
	if scaled {
		bi := blas64.Implementation()
		bi.Dscal(n, 1/sigma, w, 1)
	}
	return true
}

// dsteqr is gonum's Dsteqr with compz = EVOrig (z holds the reduction's Q
// on entry, the eigenvectors on exit; n ≥ 2), its rotations applied by
// rotateColumns. The rest is gonum's code without the branches of the other
// compz values (the eigenvalues alone, or Z = I on entry), which never run
// here.
func dsteqr(n int, d, e, z []float64, ldz int, work []float64) (ok bool) {
	var impl gonum.Implementation
	const (
		dlamchE = 0x1p-53
		dlamchS = 0x1p-1022
	)
	bi := blas64.Implementation()

	eps := dlamchE
	eps2 := eps * eps
	safmin := dlamchS
	safmax := 1 / safmin
	ssfmax := math.Sqrt(safmax) / 3
	ssfmin := math.Sqrt(safmin) / eps2

	// Compute the eigenvalues and eigenvectors of the tridiagonal matrix.
	const maxit = 30
	nmaxit := n * maxit

	jtot := 0

	// Determine where the matrix splits and choose QL or QR iteration for each
	// block, according to whether top or bottom diagonal element is smaller.
	l1 := 0
	nm1 := n - 1

	type scaletype int
	const (
		down scaletype = iota + 1
		up
	)
	var iscale scaletype

	for {
		if l1 > n-1 {
			// Order eigenvalues and eigenvectors.
			for ii := 1; ii < n; ii++ {
				i := ii - 1
				k := i
				p := d[i]
				for j := ii; j < n; j++ {
					if d[j] < p {
						k = j
						p = d[j]
					}
				}
				if k != i {
					d[k] = d[i]
					d[i] = p
					bi.Dswap(n, z[i:], ldz, z[k:], ldz)
				}
			}
			return true
		}
		if l1 > 0 {
			e[l1-1] = 0
		}
		var m int
		if l1 <= nm1 {
			for m = l1; m < nm1; m++ {
				test := math.Abs(e[m])
				if test == 0 {
					break
				}
				if test <= (math.Sqrt(math.Abs(d[m]))*math.Sqrt(math.Abs(d[m+1])))*eps {
					e[m] = 0
					break
				}
			}
		}
		l := l1
		lsv := l
		lend := m
		lendsv := lend
		l1 = m + 1
		if lend == l {
			continue
		}

		// Scale submatrix in rows and columns L to Lend
		anorm := impl.Dlanst(lapack.MaxAbs, lend-l+1, d[l:], e[l:])
		switch {
		case anorm == 0:
			continue
		case anorm > ssfmax:
			iscale = down
			// Pretend that d and e are matrices with 1 column.
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmax, lend-l+1, 1, d[l:], 1)
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmax, lend-l, 1, e[l:], 1)
		case anorm < ssfmin:
			iscale = up
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmin, lend-l+1, 1, d[l:], 1)
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmin, lend-l, 1, e[l:], 1)
		}

		// Choose between QL and QR.
		if math.Abs(d[lend]) < math.Abs(d[l]) {
			lend = lsv
			l = lendsv
		}
		if lend > l {
			// QL Iteration. Look for small subdiagonal element.
			for {
				if l != lend {
					for m = l; m < lend; m++ {
						v := math.Abs(e[m])
						if v*v <= (eps2*math.Abs(d[m]))*math.Abs(d[m+1])+safmin {
							break
						}
					}
				} else {
					m = lend
				}
				if m < lend {
					e[m] = 0
				}
				p := d[l]
				if m == l {
					// Eigenvalue found.
					l++
					if l > lend {
						break
					}
					continue
				}

				// If remaining matrix is 2×2, use Dlaev2 to compute its eigensystem.
				if m == l+1 {
					d[l], d[l+1], work[l], work[n-1+l] = impl.Dlaev2(d[l], e[l], d[l+1])
					rotateColumns(false,
						n, 2, work[l:], work[n-1+l:], z[l:], ldz)
					e[l] = 0
					l += 2
					if l > lend {
						break
					}
					continue
				}

				if jtot == nmaxit {
					break
				}
				jtot++

				// Form shift
				g := (d[l+1] - p) / (2 * e[l])
				r := impl.Dlapy2(g, 1)
				g = d[m] - p + e[l]/(g+math.Copysign(r, g))
				s := 1.0
				c := 1.0
				p = 0.0

				// Inner loop
				for i := m - 1; i >= l; i-- {
					f := s * e[i]
					b := c * e[i]
					c, s, r = impl.Dlartg(g, f)
					if i != m-1 {
						e[i+1] = r
					}
					g = d[i+1] - p
					r = (d[i]-g)*s + 2*c*b
					p = s * r
					d[i+1] = g + p
					g = c*r - b

					// If eigenvectors are desired, then save rotations.
					work[i] = c
					work[n-1+i] = -s
				}
				// If eigenvectors are desired, then apply saved rotations.
				mm := m - l + 1
				rotateColumns(false,
					n, mm, work[l:], work[n-1+l:], z[l:], ldz)
				d[l] -= p
				e[l] = g
			}
		} else {
			// QR Iteration.
			// Look for small superdiagonal element.
			for {
				if l != lend {
					for m = l; m > lend; m-- {
						v := math.Abs(e[m-1])
						if v*v <= (eps2*math.Abs(d[m])*math.Abs(d[m-1]) + safmin) {
							break
						}
					}
				} else {
					m = lend
				}
				if m > lend {
					e[m-1] = 0
				}
				p := d[l]
				if m == l {
					// Eigenvalue found
					l--
					if l < lend {
						break
					}
					continue
				}

				// If remaining matrix is 2×2, use Dlaev2 to compute its eigensystem.
				if m == l-1 {
					d[l-1], d[l], work[m], work[n-1+m] = impl.Dlaev2(d[l-1], e[l-1], d[l])
					rotateColumns(true,
						n, 2, work[m:], work[n-1+m:], z[l-1:], ldz)
					e[l-1] = 0
					l -= 2
					if l < lend {
						break
					}
					continue
				}
				if jtot == nmaxit {
					break
				}
				jtot++

				// Form shift.
				g := (d[l-1] - p) / (2 * e[l-1])
				r := impl.Dlapy2(g, 1)
				g = d[m] - p + (e[l-1])/(g+math.Copysign(r, g))
				s := 1.0
				c := 1.0
				p = 0.0

				// Inner loop.
				for i := m; i < l; i++ {
					f := s * e[i]
					b := c * e[i]
					c, s, r = impl.Dlartg(g, f)
					if i != m {
						e[i-1] = r
					}
					g = d[i] - p
					r = (d[i+1]-g)*s + 2*c*b
					p = s * r
					d[i] = g + p
					g = c*r - b

					// If eigenvectors are desired, then save rotations.
					work[i] = c
					work[n-1+i] = s
				}

				// If eigenvectors are desired, then apply saved rotations.
				mm := l - m + 1
				rotateColumns(true,
					n, mm, work[m:], work[n-1+m:], z[m:], ldz)
				d[l] -= p
				e[l-1] = g
			}
		}

		// Undo scaling if necessary.
		switch iscale {
		case down:
			// Pretend that d and e are matrices with 1 column.
			impl.Dlascl(lapack.General, 0, 0, ssfmax, anorm, lendsv-lsv+1, 1, d[lsv:], 1)
			impl.Dlascl(lapack.General, 0, 0, ssfmax, anorm, lendsv-lsv, 1, e[lsv:], 1)
		case up:
			impl.Dlascl(lapack.General, 0, 0, ssfmin, anorm, lendsv-lsv+1, 1, d[lsv:], 1)
			impl.Dlascl(lapack.General, 0, 0, ssfmin, anorm, lendsv-lsv, 1, e[lsv:], 1)
		}

		// Check for no convergence to an eigenvalue after a total of n*maxit iterations.
		if jtot >= nmaxit {
			break
		}
	}
	for i := 0; i < n-1; i++ {
		if e[i] != 0 {
			return false
		}
	}
	return true
}
