package simd

// The kernels: core's three innermost loops (core.Kernels) in WebAssembly
// with 128-bit SIMD, each lane one entry of the result. Every entry sums
// its terms in the order core's Go loops sum them (same association, no
// fused multiply-add), so the results are the same to the bit; the tests
// check that under Node. Addresses are byte offsets into the Go program's
// own memory, which the module imports.

//go:generate go run gen.go

// Module returns the kernels' WebAssembly module. It imports the Go
// program's memory as env.mem and exports outer, pairs and rowdots.
func Module() []byte { return module(outer(), pairs(), rowDots()) }

// outer is core's addOuterUpper, on a dst already cleared:
//
//	outer(dst, x, y, rows, nrows, d): dst_ij += Σ_{k<nrows} x_{rows[k], i} y_{rows[k], j}, j ≥ i,
//
// four rows at a time, two rows of dst per pass (the entry (i, i) alone,
// then (i, j) and (i+1, j) for j > i, two columns a lane each), then the
// rows left one at a time: the Go loop's order, entry by entry.
func outer() *fn {
	const dst, x, y, rows, nrows, d = 0, 1, 2, 3, 4, 5
	f := newFn("outer", nil, i32, i32, i32, i32, i32, i32)
	d8, k, i, j, off, pa, pb := f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32)
	var xr, yr [4]uint32
	var a, b [4]uint32
	var va, vb, v [4]uint32
	for r := range 4 {
		xr[r], yr[r] = f.local(i32), f.local(i32)
		a[r], b[r] = f.local(f64), f.local(f64)
		va[r], vb[r], v[r] = f.local(v128), f.local(v128), f.local(v128)
	}
	f.times8(d)
	f.set(d8)
	f.i32(0)
	f.set(k)
	// rowAt sets xr[r], yr[r] to row rows[k+r] of x and y.
	rowAt := func(r int) {
		f.get(rows)
		f.get(k)
		f.i32(2)
		f.i32Shl()
		f.i32Add()
		f.i32Load(uint32(4 * r))
		f.get(d8)
		f.i32Mul()
		f.set(off)
		f.sum(x, off)
		f.set(xr[r])
		f.sum(y, off)
		f.set(yr[r])
	}
	// sum4 leaves ((c0 v0 + c1 v1) + c2 v2) + c3 v3 on the stack, by
	// term(r), which leaves c_r v_r.
	sum4 := func(term func(r int), add func()) {
		term(0)
		term(1)
		add()
		term(2)
		add()
		term(3)
		add()
	}
	// diag sets pa to dst's entry (i, i), off being i·8.
	diag := func() {
		f.setAt(pa, dst, i, d8)
		f.sum(pa, off)
		f.set(pa)
	}
	// addDiag appends dst_ii += a0 y0_i + a1 y1_i + a2 y2_i + a3 y3_i, pa
	// at (i, i) and a[r] holding x_r's entry i.
	addDiag := func() {
		f.get(pa)
		f.get(pa)
		f.f64Load(0)
		sum4(func(r int) {
			f.get(a[r])
			f.sum(yr[r], off)
			f.f64Load(0)
			f.f64Mul()
		}, f.f64Add)
		f.f64Add()
		f.f64Store(0)
	}
	f.while(f.fits(k, 4, nrows), func() {
		for r := range 4 {
			rowAt(r)
		}
		f.i32(0)
		f.set(i)
		f.while(f.fits(i, 2, d), func() {
			f.times8(i)
			f.set(off)
			for r := range 4 {
				f.sum(xr[r], off)
				f.f64Load(0)
				f.set(a[r])
				f.sum(xr[r], off)
				f.f64Load(8)
				f.set(b[r])
			}
			diag()
			addDiag()
			for r := range 4 {
				f.get(a[r])
				f.f64x2Splat()
				f.set(va[r])
				f.get(b[r])
				f.f64x2Splat()
				f.set(vb[r])
			}
			// From column j = i+1: pa at (i, j), pb at (i+1, j).
			f.get(i)
			f.i32(1)
			f.i32Add()
			f.set(j)
			f.addTo(pa, 8)
			f.sum(pa, d8)
			f.set(pb)
			// acc appends: p += Σ_r c_r v_r (two lanes; lane 0 only when
			// scalar), c the splats of a or b.
			acc := func(p uint32, c [4]uint32, scalar bool) {
				f.get(p)
				if scalar {
					f.get(p)
					f.f64Load(0)
				} else {
					f.get(p)
					f.v128Load(0)
				}
				sum4(func(r int) {
					f.get(c[r])
					f.get(v[r])
					f.f64x2Mul()
				}, f.f64x2Add)
				if scalar {
					f.f64x2ExtractLane(0)
					f.f64Add()
					f.f64Store(0)
				} else {
					f.f64x2Add()
					f.v128Store(0)
				}
			}
			loadV := func(zero bool) {
				f.times8(j)
				f.set(off)
				for r := range 4 {
					f.sum(yr[r], off)
					if zero {
						f.v128Load64Zero(0)
					} else {
						f.v128Load(0)
					}
					f.set(v[r])
				}
			}
			f.while(f.fits(j, 2, d), func() {
				loadV(false)
				acc(pa, va, false)
				acc(pb, vb, false)
				f.addTo(pa, 16)
				f.addTo(pb, 16)
				f.addTo(j, 2)
			})
			f.ifThen(f.lt(j, d), func() {
				loadV(true)
				acc(pa, va, true)
				acc(pb, vb, true)
			})
			f.addTo(i, 2)
		})
		// d odd: the last row of dst, its one entry (i, i).
		f.ifThen(f.lt(i, d), func() {
			f.times8(i)
			f.set(off)
			for r := range 4 {
				f.sum(xr[r], off)
				f.f64Load(0)
				f.set(a[r])
			}
			diag()
			addDiag()
		})
		f.addTo(k, 4)
	})
	// The rows left, one at a time: dst_ij += x_i y_j for j ≥ i.
	f.while(f.lt(k, nrows), func() {
		rowAt(0)
		f.i32(0)
		f.set(i)
		f.while(f.lt(i, d), func() {
			f.times8(i)
			f.set(off)
			f.sum(xr[0], off)
			f.f64Load(0)
			f.set(a[0])
			diag()
			f.get(i)
			f.set(j)
			f.while(f.lt(j, d), func() {
				f.get(pa)
				f.get(pa)
				f.f64Load(0)
				f.get(a[0])
				f.get(yr[0])
				f.times8(j)
				f.i32Add()
				f.f64Load(0)
				f.f64Mul()
				f.f64Add()
				f.f64Store(0)
				f.addTo(pa, 8)
				f.addTo(j, 1)
			})
			f.addTo(i, 1)
		})
		f.addTo(k, 1)
	})
	return f
}

// pairs is the pass over the pairs of core's formW, on rows of y that are
// zero where not marked live:
//
//	pairs(y, x, w, pa, pb, np, isLive, live, nlive, d) → nlive′:
//	for each pair p < np with w_p ≠ 0, a = pa[p], b = pb[p]:
//	  v = w_p (x_a − x_b);  y_a += v;  y_b −= v
//
// marking rows a and b live (isLive, one byte a row) and appending each
// row newly marked to live (int32s, nlive of them so far), in the Go loop's
// order. Two entries of a row a lane each, the last one alone when d is
// odd.
func pairs() *fn {
	const y, x, w, pa, pb, np, isLive, live, nlive, d = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	f := newFn("pairs", []byte{i32}, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
	d8, p, ia, ib, xa, xb, ya, yb, jx := f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32)
	wp, vw, vv := f.local(f64), f.local(v128), f.local(v128)
	f.times8(d)
	f.set(d8)
	f.i32(0)
	f.set(p)
	// load32 sets l to the int32 at base + 4p.
	load32 := func(l, base uint32) {
		f.get(base)
		f.get(p)
		f.i32(2)
		f.i32Shl()
		f.i32Add()
		f.i32Load(0)
		f.set(l)
	}
	// mark marks row l live if it is not yet.
	mark := func(l uint32) {
		f.ifThen(func() {
			f.sum(isLive, l)
			f.i32Load8U(0)
			f.i32Eqz()
		}, func() {
			f.sum(isLive, l)
			f.i32(1)
			f.i32Store8(0)
			f.get(live)
			f.get(nlive)
			f.i32(2)
			f.i32Shl()
			f.i32Add()
			f.get(l)
			f.i32Store(0)
			f.addTo(nlive, 1)
		})
	}
	// at leaves base + jx.
	at := func(base uint32) {
		f.sum(base, jx)
	}
	f.while(f.lt(p, np), func() {
		f.get(w)
		f.times8(p)
		f.i32Add()
		f.f64Load(0)
		f.set(wp)
		f.ifThen(func() {
			f.get(wp)
			f.f64Zero()
			f.f64Ne()
		}, func() {
			load32(ia, pa)
			load32(ib, pb)
			mark(ia)
			mark(ib)
			f.setAt(xa, x, ia, d8)
			f.setAt(xb, x, ib, d8)
			f.setAt(ya, y, ia, d8)
			f.setAt(yb, y, ib, d8)
			f.get(wp)
			f.f64x2Splat()
			f.set(vw)
			f.i32(0)
			f.set(jx)
			f.while(f.fits(jx, 16, d8), func() {
				f.get(vw)
				at(xa)
				f.v128Load(0)
				at(xb)
				f.v128Load(0)
				f.f64x2Sub()
				f.f64x2Mul()
				f.set(vv)
				at(ya)
				at(ya)
				f.v128Load(0)
				f.get(vv)
				f.f64x2Add()
				f.v128Store(0)
				at(yb)
				at(yb)
				f.v128Load(0)
				f.get(vv)
				f.f64x2Sub()
				f.v128Store(0)
				f.addTo(jx, 16)
			})
			f.ifThen(f.lt(jx, d8), func() {
				// The last entry: the same in one lane's arithmetic.
				f.get(wp)
				at(xa)
				f.f64Load(0)
				at(xb)
				f.f64Load(0)
				f.f64Sub()
				f.f64Mul()
				f.f64x2Splat()
				f.set(vv)
				at(ya)
				at(ya)
				f.f64Load(0)
				f.get(vv)
				f.f64x2ExtractLane(0)
				f.f64Add()
				f.f64Store(0)
				at(yb)
				at(yb)
				f.f64Load(0)
				f.get(vv)
				f.f64x2ExtractLane(0)
				f.f64Sub()
				f.f64Store(0)
			})
		})
		f.addTo(p, 1)
	})
	f.get(nlive)
	return f
}

// rowDots is core's rowDots, z = X Wᵀ, from W transposed:
//
//	rowdots(z, x, wt, nt, d, r): z_kc = Σ_{j<d} x_kj wt_jc  (z nt×r, x nt×d, wt d×r),
//
// each sum from 0 in the order of j, as the Go loops. Two rows and four
// columns at a time (a lane a column: wt's row j holds them side by side),
// then the columns left one at a time for the two rows, then an odd last
// row alone.
func rowDots() *fn {
	const z, x, wt, nt, d, r = 0, 1, 2, 3, 4, 5
	f := newFn("rowdots", nil, i32, i32, i32, i32, i32, i32)
	d8, r8, k, c, jx, xk, xl, zk, zl, wp := f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32), f.local(i32)
	var acc [4]uint32
	for i := range acc {
		acc[i] = f.local(v128)
	}
	xs, xt, w0, w1 := f.local(v128), f.local(v128), f.local(v128), f.local(v128)
	s, t, wv := f.local(f64), f.local(f64), f.local(f64)
	f.times8(d)
	f.set(d8)
	f.times8(r)
	f.set(r8)
	f.i32(0)
	f.set(k)
	// rows sets xk, zk to row k of x and z, and xl, zl to the next.
	rows := func() {
		f.setAt(xk, x, k, d8)
		f.sum(xk, d8)
		f.set(xl)
		f.setAt(zk, z, k, r8)
		f.sum(zk, r8)
		f.set(zl)
	}
	// column sets wp to wt's entry (0, c) and jx to 0.
	column := func() {
		f.get(wt)
		f.times8(c)
		f.i32Add()
		f.set(wp)
		f.i32(0)
		f.set(jx)
	}
	// madd appends a += m·n (v128 locals).
	madd := func(a, m, n uint32) {
		f.get(a)
		f.get(m)
		f.get(n)
		f.f64x2Mul()
		f.f64x2Add()
		f.set(a)
	}
	// store stores v128 local v at base + 8c + offset.
	store := func(base, v uint32, offset uint32) {
		f.get(base)
		f.times8(c)
		f.i32Add()
		f.get(v)
		f.v128Store(offset)
	}
	// scalarColumn sets s (and t, if two) to column c's dot products with
	// rows xk (and xl).
	scalarColumn := func(two bool) {
		column()
		f.f64Zero()
		f.set(s)
		f.f64Zero()
		f.set(t)
		f.while(f.lt(jx, d8), func() {
			f.get(wp)
			f.f64Load(0)
			f.set(wv)
			f.get(s)
			f.sum(xk, jx)
			f.f64Load(0)
			f.get(wv)
			f.f64Mul()
			f.f64Add()
			f.set(s)
			if two {
				f.get(t)
				f.sum(xl, jx)
				f.f64Load(0)
				f.get(wv)
				f.f64Mul()
				f.f64Add()
				f.set(t)
			}
			f.addTo(jx, 8)
			f.addLocal(wp, r8)
		})
		// z_kc = s (and z_lc = t).
		f.get(zk)
		f.times8(c)
		f.i32Add()
		f.get(s)
		f.f64Store(0)
		if two {
			f.get(zl)
			f.times8(c)
			f.i32Add()
			f.get(t)
			f.f64Store(0)
		}
	}
	f.while(f.fits(k, 2, nt), func() {
		rows()
		f.i32(0)
		f.set(c)
		f.while(f.fits(c, 4, r), func() {
			column()
			for _, a := range acc {
				f.v128Zero()
				f.set(a)
			}
			f.while(f.lt(jx, d8), func() {
				f.sum(xk, jx)
				f.v128Load64Splat(0)
				f.set(xs)
				f.sum(xl, jx)
				f.v128Load64Splat(0)
				f.set(xt)
				f.get(wp)
				f.v128Load(0)
				f.set(w0)
				f.get(wp)
				f.v128Load(16)
				f.set(w1)
				madd(acc[0], xs, w0)
				madd(acc[1], xs, w1)
				madd(acc[2], xt, w0)
				madd(acc[3], xt, w1)
				f.addTo(jx, 8)
				f.addLocal(wp, r8)
			})
			store(zk, acc[0], 0)
			store(zk, acc[1], 16)
			store(zl, acc[2], 0)
			store(zl, acc[3], 16)
			f.addTo(c, 4)
		})
		f.while(f.lt(c, r), func() {
			scalarColumn(true)
			f.addTo(c, 1)
		})
		f.addTo(k, 2)
	})
	f.ifThen(f.lt(k, nt), func() {
		rows()
		f.i32(0)
		f.set(c)
		f.while(f.lt(c, r), func() {
			scalarColumn(false)
			f.addTo(c, 1)
		})
	})
	return f
}
