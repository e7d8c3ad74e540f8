package store

import "github.com/rml-lab/rml/wasm/protocol"

// Action is anything Reduce takes.
type Action interface{ isAction() }

// User actions.
type (
	SelectBuiltin  struct{ Name string }
	Upload         struct{ Name, Text string }
	UploadFailed   struct{ Message string } // the browser could not read the file
	ChooseLabel    struct{ Column string }
	SetMissing     struct{ Value string }        // "", "drop" or "mean" (Read.Missing)
	SetRole        struct{ Column, Role string } // "feature", "excluded", "one-hot" or "id"
	UploadTriplets struct{ Name, Text string }   // a triplet file
	SetTripletsBy  struct{ Value string }        // "row0", "row1" or "id"
	UseTriplets    struct{ FromFile bool }       // the file's triplets, or the labels'
	SetKSame       struct{ Value int }
	SetKDiff       struct{ Value int }
	SetFlip        struct{ Value float64 }
	SetEta         struct{ Value float64 }
	SetLambda      struct{ Value float64 }
	SetMethod      struct{ Value string }
	SetTol         struct{ Value float64 }
	SetSeed        struct{ Value uint64 }
	Train          struct{}
	Stop           struct{}
	Reset          struct{}
	Invalid        struct{ Message string } // a typed value that is not a number, say

	Pin            struct{}              // keep the last result as a column
	Unpin          struct{ Index int }   // remove a column
	Compare        struct{}              // train the chosen method and the baselines, one after another
	SweepRun       struct{ Axis string } // "eta" or "flip"
	Step           struct{ N int }       // N iterations from the last solution
	DropTriplet    struct{ Index int }   // toggle: leave the triplet out (index among those drawn)
	ReverseTriplet struct{ Index int }   // toggle: exchange its y and z
	ClearEdits     struct{}
	ApplyPreset    struct{ Key string }
	FollowLink     struct{ Fragment string } // the address's fragment changed (a link followed in the same tab)
	ToggleSeries   struct{ Name string }     // show or hide a learner's series in the sweep (by method name)
	Share          Shared                    // a link or embed code was made (and perhaps copied)
	Export         struct{ Kind string }     // a download (see ui/export.go); the page writes it, the state does not change
	StartFresh     struct{}                  // leave the restored session for the first lesson
)

// A saved run read a piece at a time (the glue parses a large one in
// pieces, ParseRunChecked): how far it has got (Done 0: it starts), and
// what came of it.
type (
	RunReading struct {
		Name        string
		Done, Total int // bytes
	}
	RunRead struct {
		Name   string
		Seq    int // State.OpenSeq when it started
		Run    *SavedRun
		Params Params
		Err    error
	}
)

// Storage actions: the session kept from the last visit, and a failure to
// keep this one.
type (
	// Restore is a session SessionJSON wrote, with the text of its data
	// file and of its triplet file ("" when it had none).
	Restore    struct{ Session, CSV, Triplets string }
	KeepFailed struct{ Reason string }
)

// Worker actions: what the worker said, or that it died.
type (
	WorkerReady struct {
		Builtins []string
		Kernels  string // protocol.Ready.Kernels
	}
	Reply      struct{ Message protocol.Message }
	WorkerDied struct{ Reason string }
	// Helpers lists the lanes of the helper workers that now hold the
	// data lane 0 holds; batches spread over them and lane 0.
	Helpers struct{ Lanes []int }
	// LaneLost says helper Lane died; its runs end with Reason as an error.
	LaneLost struct {
		Lane   int
		Reason string
	}
)

func (SelectBuiltin) isAction()  {}
func (Upload) isAction()         {}
func (UploadFailed) isAction()   {}
func (ChooseLabel) isAction()    {}
func (SetMissing) isAction()     {}
func (SetRole) isAction()        {}
func (UploadTriplets) isAction() {}
func (SetTripletsBy) isAction()  {}
func (UseTriplets) isAction()    {}
func (SetKSame) isAction()       {}
func (SetKDiff) isAction()       {}
func (SetFlip) isAction()        {}
func (SetEta) isAction()         {}
func (SetLambda) isAction()      {}
func (SetMethod) isAction()      {}
func (SetTol) isAction()         {}
func (SetSeed) isAction()        {}
func (Train) isAction()          {}
func (Stop) isAction()           {}
func (Reset) isAction()          {}
func (Invalid) isAction()        {}
func (Pin) isAction()            {}
func (Unpin) isAction()          {}
func (Compare) isAction()        {}
func (SweepRun) isAction()       {}
func (Step) isAction()           {}
func (DropTriplet) isAction()    {}
func (ReverseTriplet) isAction() {}
func (ClearEdits) isAction()     {}
func (ApplyPreset) isAction()    {}
func (FollowLink) isAction()     {}
func (ToggleSeries) isAction()   {}
func (Share) isAction()          {}
func (Export) isAction()         {}
func (StartFresh) isAction()     {}
func (RunReading) isAction()     {}
func (RunRead) isAction()        {}
func (Restore) isAction()        {}
func (KeepFailed) isAction()     {}
func (WorkerReady) isAction()    {}
func (Reply) isAction()          {}
func (WorkerDied) isAction()     {}
func (Helpers) isAction()        {}
func (LaneLost) isAction()       {}
