package session

import (
	"context"
	"strconv"
	"testing"

	"github.com/rml-lab/rml/internal/bigcsv"
	"github.com/rml-lab/rml/wasm/protocol"
)

// BenchmarkFrames trains the page's upload (bigcsv: n rows of 50
// features, 5 classes) to a relative gap of 1e-3, with the learned view's
// frames (a run of its own) and without (a batch's run, which posts none):
// the frames are to cost the run a twentieth of its time at most (core's
// metricSpacing). It reports the frames each run posted.
func BenchmarkFrames(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		csv := bigcsv.CSV(n, 50, 5, 10)
		for _, frames := range []bool{false, true} {
			name := "n=" + strconv.Itoa(n) + "/none"
			if frames {
				name = "n=" + strconv.Itoa(n) + "/frames"
			}
			b.Run(name, func(b *testing.B) {
				s := newSession()
				if _, e := s.Load(protocol.Load{CSV: csv, FileName: "big.csv", TestFrac: 0.15, Seed: 1}); e != nil {
					b.Fatal(e.Message)
				}
				req := defaultTrain()
				req.Tol, req.Batch = 1e-3, !frames
				posted := 0
				for b.Loop() {
					if _, e := s.Train(context.Background(), req, func(p *protocol.Progress) {
						if len(p.Frame) > 0 {
							posted++
						}
					}); e != nil {
						b.Fatal(e.Message)
					}
				}
				b.ReportMetric(float64(posted)/float64(b.N), "frames/op")
			})
		}
	}
}
