// Package ask is the page's Ask-me mode without the page: items a person
// can judge (a seeded set of colours), the questions "which of these two
// is more like this one?" (at random, or where the learned metric is least
// sure), the answers as triplets, a simulated respondent that answers by a
// hidden metric and errs at a chosen rate, the respondent's own error rate
// estimated from questions asked twice, the held-out agreement of a
// metric with the answers, and the answers' file.
//
// It is pure Go, so that the page (ui/store) and the native tests and
// benchmarks share it. Every random choice takes the set's seed and the
// question's number: the same answers give the same next question, after a
// reload too.
package ask
