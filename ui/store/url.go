package store

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rml-lab/rml/spec"
)

// field is one entry of the link codec: its key in the URL fragment, how to
// write it, and how to read it back (with the check that it is usable).
type field struct {
	key   string
	write func(*Params) string
	read  func(*Params, string) error
}

func floatField(key string, ptr func(*Params) *float64, r spec.Range) field {
	return field{key,
		func(p *Params) string { return strconv.FormatFloat(*ptr(p), 'g', -1, 64) },
		func(p *Params, s string) error {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || !r.OK(v) {
				return errors.New(key + "=" + strconv.Quote(s) + ": expected " + r.Want)
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
				return errors.New(key + "=" + strconv.Quote(s) + ": expected a whole number from " + strconv.Itoa(lo) + " to " + strconv.Itoa(hi))
			}
			*ptr(p) = v
			return nil
		}}
}

// fields is the codec: a shared link carries every parameter, the seed too,
// so that it rebuilds the same run.
var fields = []field{
	// A lesson first: its settings are the base the keys after it change.
	{"preset",
		func(p *Params) string { return p.Preset },
		func(p *Params, s string) error {
			pr, ok := PresetNamed(s)
			if !ok {
				var keys []string
				for _, q := range Presets {
					keys = append(keys, q.Key)
				}
				return errors.New("preset=" + strconv.Quote(s) + ": expected one of " + strings.Join(keys, ", "))
			}
			pr.apply(p)
			return nil
		}},
	{"data",
		func(p *Params) string { return p.Dataset },
		func(p *Params, s string) error { p.Dataset = s; return nil }},
	{"label",
		func(p *Params) string { return p.Label },
		func(p *Params, s string) error { p.Label = s; return nil }},
	intField("ksame", func(p *Params) *int { return &p.KSame }, 1, spec.PageMaxK),
	intField("kdiff", func(p *Params) *int { return &p.KDiff }, 1, spec.PageMaxK),
	floatField("flip", func(p *Params) *float64 { return &p.Flip }, spec.PageFlipRange),
	floatField("eta", func(p *Params) *float64 { return &p.Eta }, spec.PageEtaRange),
	floatField("lambda", func(p *Params) *float64 { return &p.Lambda }, spec.LambdaRange),
	{"method",
		func(p *Params) string { return p.Method },
		func(p *Params, s string) error {
			if err := spec.CheckMethod(s); err != nil {
				return errors.New("method=" + strconv.Quote(s) + ": expected fast, nesterov or gradient")
			}
			p.Method = s
			return nil
		}},
	floatField("tol", func(p *Params) *float64 { return &p.Tol }, spec.TolRange),
	{"seed",
		func(p *Params) string { return strconv.FormatUint(p.Seed, 10) },
		func(p *Params, s string) error {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return errors.New("seed=" + strconv.Quote(s) + ": expected a whole number ≥ 0")
			}
			p.Seed = v
			return nil
		}},
	// The Ask-me mode on its items (written only when on).
	{"ask",
		func(p *Params) string { return p.Ask },
		func(p *Params, s string) error {
			if !slices.Contains(AskSets, s) {
				return errors.New("ask=" + strconv.Quote(s) + ": expected one of " + strings.Join(AskSets, ", "))
			}
			p.Ask = s
			return nil
		}},
	// How the page shows itself (written only when not the default).
	boolField("embed", func(p *Params) *bool { return &p.View.Embed }),
	{"hide",
		func(p *Params) string { return p.View.Hide },
		func(p *Params, s string) error {
			want := map[string]bool{}
			var bad []string
			for _, h := range strings.Split(s, ",") {
				h = strings.TrimSpace(h)
				switch {
				case h == "":
				case slices.Contains(Hideable, h):
					want[h] = true
				default:
					bad = append(bad, strconv.Quote(h))
				}
			}
			var keep []string
			for _, h := range Hideable {
				if want[h] {
					keep = append(keep, h)
				}
			}
			p.View.Hide = strings.Join(keep, ",")
			if len(bad) > 0 {
				return errors.New("hide=: " + strings.Join(bad, ", ") + " cannot be hidden; expected names from " + strings.Join(Hideable, ", "))
			}
			return nil
		}},
	// Off by default: written as autorun=0 when the page is to wait.
	{"autorun",
		func(p *Params) string {
			if p.View.Idle {
				return "0"
			}
			return ""
		},
		func(p *Params, s string) error {
			switch s {
			case "1", "true":
				p.View.Idle = false
			case "0", "false":
				p.View.Idle = true
			default:
				return errors.New("autorun=" + strconv.Quote(s) + ": expected 1 or 0")
			}
			return nil
		}},
}

// boolField is a switch: written as 1 when on, left out when off; read
// as 1 or 0.
func boolField(key string, ptr func(*Params) *bool) field {
	return field{key,
		func(p *Params) string {
			if *ptr(p) {
				return "1"
			}
			return ""
		},
		func(p *Params, s string) error {
			switch s {
			case "1", "true":
				*ptr(p) = true
			case "0", "false":
				*ptr(p) = false
			default:
				return errors.New(key + "=" + strconv.Quote(s) + ": expected 1 or 0")
			}
			return nil
		}}
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
		b.WriteString(f.key + "=" + escape(v))
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
	if len(fragment) > MaxFragment {
		return p, []string{"the link's settings are " + strconv.Itoa(len(fragment)>>10) + " KB long; a link to this page carries at most " + strconv.Itoa(MaxFragment>>10) + " KB, so none of them was read"}
	}
	var problems []string
	vals, bad := parseQuery(fragment)
	if bad != "" {
		problems = append(problems, bad)
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
			unknown = append(unknown, strconv.Quote(k)+" is not a setting")
		}
	}
	slices.Sort(unknown)
	problems = append(problems, unknown...)
	if _, ok := vals["data"]; ok && p.Dataset == "" {
		p.Dataset = base.Dataset
	}
	return p, problems
}

// escape percent-encodes all but unreserved characters (RFC 3986) and the
// comma, which a fragment may hold as it is and hide= lists with.
func escape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~,", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// unescape undoes escape; '+' reads as a space, as in a query string.
func unescape(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			b.WriteByte(' ')
		case c == '%':
			if i+2 >= len(s) {
				return "", false
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteByte(byte(v))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// parseQuery reads "k=v&k=v"; the first value of a key counts. bad names
// the first part that could not be read, if any.
func parseQuery(q string) (vals map[string][]string, bad string) {
	vals = map[string][]string{}
	for _, part := range strings.Split(q, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		key, ok1 := unescape(k)
		val, ok2 := unescape(v)
		if !ok1 || !ok2 {
			if bad == "" {
				bad = "the link's setting " + strconv.Quote(part) + " could not be read"
			}
			continue
		}
		vals[key] = append(vals[key], val)
	}
	return vals, bad
}
