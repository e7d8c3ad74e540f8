package protocol_test

import (
	"fmt"

	"github.com/rml-lab/rml/wasm/protocol"
)

// A message crosses postMessage as a binary header and a list of float64
// arrays; Decode checks both and rebuilds the message.
func Example() {
	m := protocol.Message{ID: 7, Kind: protocol.KindProgress, Progress: &protocol.Progress{
		Iter: 2, Gap: 0.5, RelGap: 0.01, Iters: []float64{1, 2}, Gaps: []float64{0.9, 0.5},
	}}
	header, arrays, err := protocol.Encode(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(arrays), "arrays beside the header")
	back, err := protocol.Decode(header, arrays)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(back.ID, back.Kind, back.Progress.Iter, back.Progress.Gaps)

	// A header cut short is an error, never a panic.
	_, err = protocol.Decode(header[:len(header)-2], arrays)
	fmt.Println(err)
	// Output:
	// 3 arrays beside the header
	// 7 progress 2 [0.9 0.5]
	// protocol: header ends early or has a bad length
}
