package store

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// field is one entry of the link codec: its key in the URL fragment, how to
// write it, and how to read it back (with the check that it is usable).
type field struct {
	key   string
	write func(*Params) string
	read  func(*Params, string) error
}

func floatField(key string, ptr func(*Params) *float64, ok func(float64) bool, want string) field {
	return field{key,
		func(p *Params) string { return strconv.FormatFloat(*ptr(p), 'g', -1, 64) },
		func(p *Params, s string) error {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || !ok(v) {
				return fmt.Errorf("%s=%q: expected %s", key, s, want)
			}
			*ptr(p) = v
			return nil
		}}
}

func intField(key string, ptr func(*Params) *int, lo, hi int) field {
	return field{key,
		func(p *Params) string { return strconv.Itoa(*ptr(p)) },
		func(p *Params, s string) error {
			v, err := strconv.Atoi(s)
			if err != nil || v < lo || v > hi {
				return fmt.Errorf("%s=%q: expected a whole number from %d to %d", key, s, lo, hi)
			}
			*ptr(p) = v
			return nil
		}}
}

// fields is the codec: a shared link carries every parameter, the seed too,
// so that it rebuilds the same run.
var fields = []field{
	{"data",
		func(p *Params) string { return p.Dataset },
		func(p *Params, s string) error { p.Dataset = s; return nil }},
	{"label",
		func(p *Params) string { return p.Label },
		func(p *Params, s string) error { p.Label = s; return nil }},
	intField("ksame", func(p *Params) *int { return &p.KSame }, 1, 50),
	intField("kdiff", func(p *Params) *int { return &p.KDiff }, 1, 50),
	floatField("flip", func(p *Params) *float64 { return &p.Flip }, func(v float64) bool { return v >= 0 && v <= 1 }, "a number from 0 to 1"),
	floatField("eta", func(p *Params) *float64 { return &p.Eta }, func(v float64) bool { return v > 0 && v <= 1 }, "a number in (0, 1]"),
	floatField("lambda", func(p *Params) *float64 { return &p.Lambda }, func(v float64) bool { return v > 0 && v < 1e12 }, "a positive number"),
	{"method",
		func(p *Params) string { return p.Method },
		func(p *Params, s string) error {
			switch s {
			case "fast", "nesterov", "gradient":
				p.Method = s
				return nil
			}
			return fmt.Errorf("method=%q: expected fast, nesterov or gradient", s)
		}},
	floatField("tol", func(p *Params) *float64 { return &p.Tol }, func(v float64) bool { return v > 0 && v < 1 }, "a number between 0 and 1"),
	{"seed",
		func(p *Params) string { return strconv.FormatUint(p.Seed, 10) },
		func(p *Params, s string) error {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return fmt.Errorf("seed=%q: expected a whole number ≥ 0", s)
			}
			p.Seed = v
			return nil
		}},
}

// EncodeURL writes p as a URL fragment (without the '#').
func EncodeURL(p Params) string {
	var b strings.Builder
	for _, f := range fields {
		v := f.write(&p)
		if v == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(f.key + "=" + url.QueryEscape(v))
	}
	return b.String()
}

// DecodeURL reads a fragment written by EncodeURL over base. Unknown keys
// and unusable values are skipped and reported; the rest still applies.
func DecodeURL(fragment string, base Params) (Params, []string) {
	fragment = strings.TrimPrefix(fragment, "#")
	p := base
	if fragment == "" {
		return p, nil
	}
	var problems []string
	vals, err := url.ParseQuery(fragment)
	if err != nil {
		return p, []string{fmt.Sprintf("the link's settings could not be read: %v", err)}
	}
	known := map[string]bool{}
	for _, f := range fields {
		known[f.key] = true
		if vs, ok := vals[f.key]; ok {
			if err := f.read(&p, vs[0]); err != nil {
				problems = append(problems, err.Error())
			}
		}
	}
	var unknown []string
	for k := range vals {
		if !known[k] {
			unknown = append(unknown, fmt.Sprintf("%q is not a setting", k))
		}
	}
	slices.Sort(unknown)
	problems = append(problems, unknown...)
	if _, ok := vals["data"]; ok && p.Dataset == "" {
		p.Dataset = base.Dataset
	}
	return p, problems
}
