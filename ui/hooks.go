//go:build js && wasm && !e2e

package ui

// The page's test hooks are built only into the e2e tests' build
// (hooks_e2e.go, build.sh with RML_TAGS=e2e): the page users get has none.

func exposeTestHooks() {}

func redrawsAsked(int) {}
