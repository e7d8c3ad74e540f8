package ask

import "math"

// The colour science the Ask-me mode needs: sRGB to CIELAB (D65) and the
// CIEDE2000 colour difference, the perceptual reference the learned metric
// is set beside. They are written here, not taken from a library, because
// the mode needs exactly these two functions, checked against the
// published test data (Sharma, Wu and Dalal, 2005), and no colour library
// is among the project's dependencies.

// linear is an sRGB component in [0, 1] made linear (IEC 61966-2-1).
func linear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// Lab is sRGB (components in [0, 1]) in CIELAB under D65:
//
//	X, Y, Z = M · linear(r, g, b),  f(t) = t^(1/3) (t > (6/29)³), else t/(3(6/29)²) + 4/29
//	L* = 116 f(Y/Yn) − 16,  a* = 500 (f(X/Xn) − f(Y/Yn)),  b* = 200 (f(Y/Yn) − f(Z/Zn))
func Lab(r, g, b float64) [3]float64 {
	lr, lg, lb := linear(r), linear(g), linear(b)
	// sRGB's matrix to XYZ (D65), and D65's white (Y = 1).
	x := 0.4124564*lr + 0.3575761*lg + 0.1804375*lb
	y := 0.2126729*lr + 0.7151522*lg + 0.0721750*lb
	z := 0.0193339*lr + 0.1191920*lg + 0.9503041*lb
	const xn, yn, zn = 0.95047, 1.0, 1.08883
	f := func(t float64) float64 {
		const e = 6.0 / 29
		if t > e*e*e {
			return math.Cbrt(t)
		}
		return t/(3*e*e) + 4.0/29
	}
	fx, fy, fz := f(x/xn), f(y/yn), f(z/zn)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// CIEDE2000 is the CIEDE2000 colour difference ΔE₀₀ of two CIELAB colours
// with k_L = k_C = k_H = 1, as Sharma, Wu and Dalal (2005) give it
// (equations 1–21; their notes on the hue's mean and difference followed
// where the chroma is zero).
func CIEDE2000(p, q [3]float64) float64 {
	rad := math.Pi / 180
	l1, a1, b1 := p[0], p[1], p[2]
	l2, a2, b2 := q[0], q[1], q[2]
	// a' = (1 + G) a, G = ½ (1 − √(C̄⁷/(C̄⁷ + 25⁷))), C̄ the mean chroma.
	cbar := (math.Hypot(a1, b1) + math.Hypot(a2, b2)) / 2
	c7 := math.Pow(cbar, 7)
	g := 0.5 * (1 - math.Sqrt(c7/(c7+math.Pow(25, 7))))
	a1p, a2p := (1+g)*a1, (1+g)*a2
	c1p, c2p := math.Hypot(a1p, b1), math.Hypot(a2p, b2)
	hue := func(b, a float64) float64 {
		if a == 0 && b == 0 {
			return 0
		}
		// In degrees as atan2 · 180/π: the published pair 14 has
		// |h₂' − h₁'| = 180° exactly, and dividing by π/180 instead
		// rounds it past 180°, onto the other branch of Δh'.
		h := math.Atan2(b, a) * 180 / math.Pi
		if h < 0 {
			h += 360
		}
		return h
	}
	h1p, h2p := hue(b1, a1p), hue(b2, a2p)
	dL, dC := l2-l1, c2p-c1p
	var dh float64
	switch {
	case c1p*c2p == 0:
		dh = 0
	case math.Abs(h2p-h1p) <= 180:
		dh = h2p - h1p
	case h2p-h1p > 180:
		dh = h2p - h1p - 360
	default:
		dh = h2p - h1p + 360
	}
	dH := 2 * math.Sqrt(c1p*c2p) * math.Sin(dh/2*rad)
	lbar, cbarp := (l1+l2)/2, (c1p+c2p)/2
	var hbar float64
	switch {
	case c1p*c2p == 0:
		hbar = h1p + h2p
	case math.Abs(h1p-h2p) <= 180:
		hbar = (h1p + h2p) / 2
	case h1p+h2p < 360:
		hbar = (h1p + h2p + 360) / 2
	default:
		hbar = (h1p + h2p - 360) / 2
	}
	t := 1 - 0.17*math.Cos((hbar-30)*rad) + 0.24*math.Cos(2*hbar*rad) + 0.32*math.Cos((3*hbar+6)*rad) - 0.20*math.Cos((4*hbar-63)*rad)
	dTheta := 30 * math.Exp(-math.Pow((hbar-275)/25, 2))
	cp7 := math.Pow(cbarp, 7)
	rc := 2 * math.Sqrt(cp7/(cp7+math.Pow(25, 7)))
	l50 := (lbar - 50) * (lbar - 50)
	sl := 1 + 0.015*l50/math.Sqrt(20+l50)
	sc := 1 + 0.045*cbarp
	sh := 1 + 0.015*cbarp*t
	rt := -math.Sin(2*dTheta*rad) * rc
	tl, tc, th := dL/sl, dC/sc, dH/sh
	return math.Sqrt(tl*tl + tc*tc + th*th + rt*tc*th)
}
