package session

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

// sha256Sum agrees with crypto/sha256 on every length around the block and
// padding boundaries (0–200 bytes) and on a long message, seeded.
func TestSHA256(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	msg := make([]byte, 100_003)
	for i := range msg {
		msg[i] = byte(rng.Uint32())
	}
	for n := 0; n <= 200; n++ {
		if got, want := sha256Sum(msg[:n]), sha256.Sum256(msg[:n]); got != want {
			t.Fatalf("%d bytes: %x, want %x", n, got, want)
		}
	}
	if got, want := sha256Sum(msg), sha256.Sum256(msg); got != want {
		t.Fatalf("%d bytes: %x, want %x", len(msg), got, want)
	}
}
