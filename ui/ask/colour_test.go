package ask

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// sharma is Table 1 of Sharma, Wu and Dalal, "The CIEDE2000 color-difference
// formula: implementation notes, supplementary test data, and mathematical
// observations", Color Research & Application 30(1), 2005 (the file
// ciede2000testdata.txt on the first author's page): L₁ a₁ b₁ L₂ a₂ b₂ ΔE₀₀,
// the last to four decimals.
const sharma = `50.0000 2.6772 -79.7751 50.0000 0.0000 -82.7485 2.0425
50.0000 3.1571 -77.2803 50.0000 0.0000 -82.7485 2.8615
50.0000 2.8361 -74.0200 50.0000 0.0000 -82.7485 3.4412
50.0000 -1.3802 -84.2814 50.0000 0.0000 -82.7485 1.0000
50.0000 -1.1848 -84.8006 50.0000 0.0000 -82.7485 1.0000
50.0000 -0.9009 -85.5211 50.0000 0.0000 -82.7485 1.0000
50.0000 0.0000 0.0000 50.0000 -1.0000 2.0000 2.3669
50.0000 -1.0000 2.0000 50.0000 0.0000 0.0000 2.3669
50.0000 2.4900 -0.0010 50.0000 -2.4900 0.0009 7.1792
50.0000 2.4900 -0.0010 50.0000 -2.4900 0.0010 7.1792
50.0000 2.4900 -0.0010 50.0000 -2.4900 0.0011 7.2195
50.0000 2.4900 -0.0010 50.0000 -2.4900 0.0012 7.2195
50.0000 -0.0010 2.4900 50.0000 0.0009 -2.4900 4.8045
50.0000 -0.0010 2.4900 50.0000 0.0010 -2.4900 4.8045
50.0000 -0.0010 2.4900 50.0000 0.0011 -2.4900 4.7461
50.0000 2.5000 0.0000 50.0000 0.0000 -2.5000 4.3065
50.0000 2.5000 0.0000 73.0000 25.0000 -18.0000 27.1492
50.0000 2.5000 0.0000 61.0000 -5.0000 29.0000 22.8977
50.0000 2.5000 0.0000 56.0000 -27.0000 -3.0000 31.9030
50.0000 2.5000 0.0000 58.0000 24.0000 15.0000 19.4535
50.0000 2.5000 0.0000 50.0000 3.1736 0.5854 1.0000
50.0000 2.5000 0.0000 50.0000 3.2972 0.0000 1.0000
50.0000 2.5000 0.0000 50.0000 1.8634 0.5757 1.0000
50.0000 2.5000 0.0000 50.0000 3.2592 0.3350 1.0000
60.2574 -34.0099 36.2677 60.4626 -34.1751 39.4387 1.2644
63.0109 -31.0961 -5.8663 62.8187 -29.7946 -4.0864 1.2630
61.2901 3.7196 -5.3901 61.4292 2.2480 -4.9620 1.8731
35.0831 -44.1164 3.7933 35.0232 -40.0716 1.5901 1.8645
22.7233 20.0904 -46.6940 23.0331 14.9730 -42.5619 2.0373
36.4612 47.8580 18.3852 36.2715 50.5065 21.2231 1.4146
90.8027 -2.0831 1.4410 91.1528 -1.6435 0.0447 1.4441
90.9257 -0.5406 -0.9208 88.6381 -0.8985 -0.7239 1.5381
6.7747 -0.2908 -2.4247 5.8714 -0.0985 -2.2286 0.6377
2.0776 0.0795 -1.1350 0.9033 -0.0636 -0.5514 0.9082`

// Every pair of the published table, both ways round, to the table's four
// decimals (half a unit of its last place).
func TestCIEDE2000Sharma(t *testing.T) {
	lines := strings.Split(sharma, "\n")
	if len(lines) != 34 {
		t.Fatalf("%d pairs, want 34", len(lines))
	}
	for i, line := range lines {
		var v [7]float64
		for j, f := range strings.Fields(line) {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			v[j] = x
		}
		p, q := [3]float64{v[0], v[1], v[2]}, [3]float64{v[3], v[4], v[5]}
		for _, got := range []float64{CIEDE2000(p, q), CIEDE2000(q, p)} {
			if math.Abs(got-v[6]) > 0.5e-4 {
				t.Errorf("pair %d: ΔE₀₀ %.6f, want %.4f", i+1, got, v[6])
			}
		}
	}
}

// sRGB's white, black and primaries in CIELAB (D65), as the CIE's formulas
// give them to four decimals (red 53.2408, 80.0925, 67.2032 in Bruce
// Lindbloom's calculator with the same matrix and white).
func TestLab(t *testing.T) {
	for _, c := range []struct {
		rgb  [3]float64
		want [3]float64
		tol  float64
	}{
		{[3]float64{1, 1, 1}, [3]float64{100, 0, 0}, 1e-3},
		{[3]float64{0, 0, 0}, [3]float64{0, 0, 0}, 1e-12},
		{[3]float64{1, 0, 0}, [3]float64{53.2408, 80.0925, 67.2032}, 2e-3},
	} {
		got := Lab(c.rgb[0], c.rgb[1], c.rgb[2])
		for k := range got {
			if math.Abs(got[k]-c.want[k]) > c.tol {
				t.Errorf("Lab%v = %v, want %v", c.rgb, got, c.want)
				break
			}
		}
	}
}
