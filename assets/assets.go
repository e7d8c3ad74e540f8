// Package assets holds the built-in datasets, embedded so that the worker
// needs no network to offer them.
package assets

import "embed"

// Datasets holds datasets/*.csv: Iris, Wine, Sonar and Ionosphere from the
// UCI repository, as copied from ../shared/datasets.
//
//go:embed datasets/*.csv
var Datasets embed.FS
