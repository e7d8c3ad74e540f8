package store

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON writer and reader for the saved run. encoding/json would
// do, but it cost the page's program 120,873 bytes gzip more than this
// (measured with build.sh); the run's schema is fixed and small.

// obj is a JSON object whose keys keep their order.
type obj []kv

type kv struct {
	k string
	v any
}

// appendJSON writes v: obj, []any, string, bool, int, float64 (finite),
// []float64, []int, []string, or nil (null); a non-finite number is an
// error, as JSON cannot hold it.
func appendJSON(b []byte, v any, indent string) ([]byte, error) {
	var err error
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case uint64:
		return strconv.AppendUint(b, v, 10), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return b, errors.New("the number " + strconv.FormatFloat(v, 'g', -1, 64) + " cannot be written in JSON")
		}
		return strconv.AppendFloat(b, v, 'g', -1, 64), nil
	case string:
		return appendString(b, v), nil
	case []float64:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			if b, err = appendJSON(b, x, ""); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case []int:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendInt(b, int64(x), 10)
		}
		return append(b, ']'), nil
	case []string:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendString(b, x)
		}
		return append(b, ']'), nil
	case []any, obj:
		return appendBlock(b, v, indent)
	}
	panic("store: appendJSON of an unknown type")
}

// appendBlock writes a list or an object, one item a line, indented one
// space deeper than indent.
func appendBlock(b []byte, v any, indent string) ([]byte, error) {
	var err error
	nl := func(b []byte, depth string) []byte { return append(append(b, '\n'), depth...) }
	switch v := v.(type) {
	case []any:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = nl(b, indent+" ")
			if b, err = appendJSON(b, x, indent+" "); err != nil {
				return b, err
			}
		}
		if len(v) > 0 {
			b = nl(b, indent)
		}
		return append(b, ']'), nil
	case obj:
		b = append(b, '{')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = nl(b, indent+" ")
			b = append(appendString(b, e.k), ": "...)
			if b, err = appendJSON(b, e.v, indent+" "); err != nil {
				return b, err
			}
		}
		if len(v) > 0 {
			b = nl(b, indent)
		}
		return append(b, '}'), nil
	}
	panic("store: appendBlock of a value that is no list or object")
}

// appendString writes s as a JSON string: '"' and '\\' escaped, control
// characters as \u00XX, invalid UTF-8 as U+FFFD, the rest as it is.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&15])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// parseJSON reads one JSON value: objects as map[string]any, arrays as
// []any, numbers as float64, and strings, bools and nil.
func parseJSON(s string) (any, error) { return parseJSONChecked(s, nil) }

// parseJSONChecked is parseJSON calling check (if not nil) with the bytes
// read of the whole every checkBytes or so; an error from check ends the
// parse with it. The page reads a large saved run so, a piece at a time.
func parseJSONChecked(s string, check func(done, total int) error) (any, error) {
	p := &jsonParser{s: s, check: check, next: checkBytes}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(s) {
		return nil, p.fail("end of the file")
	}
	return v, nil
}

type jsonParser struct {
	s     string
	i     int
	check func(done, total int) error
	next  int // the byte at which check is called next
}

// checkBytes is how many bytes a checked parse reads between two checks.
const checkBytes = 64 << 10

func (p *jsonParser) fail(want string) error {
	return errors.New("at byte " + strconv.Itoa(p.i+1) + ": expected " + want)
}

func (p *jsonParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n' || p.s[p.i] == '\r' || p.s[p.i] == '\t') {
		p.i++
	}
}

const maxDepth = 64

func (p *jsonParser) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, p.fail("at most " + strconv.Itoa(maxDepth) + " nested levels")
	}
	if p.check != nil && p.i >= p.next {
		p.next = p.i + checkBytes
		if err := p.check(p.i, len(p.s)); err != nil {
			return nil, err
		}
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, p.fail("a value")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == 't' || c == 'f' || c == 'n':
		for _, w := range []struct {
			lit string
			v   any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if len(p.s)-p.i >= len(w.lit) && p.s[p.i:p.i+len(w.lit)] == w.lit {
				p.i += len(w.lit)
				return w.v, nil
			}
		}
		return nil, p.fail("a value")
	default:
		j := p.i
		for j < len(p.s) && (p.s[j] == '-' || p.s[j] == '+' || p.s[j] == '.' || p.s[j] == 'e' || p.s[j] == 'E' || p.s[j] >= '0' && p.s[j] <= '9') {
			j++
		}
		f, err := strconv.ParseFloat(p.s[p.i:j], 64)
		if err != nil || j == p.i || math.IsInf(f, 0) {
			return nil, p.fail("a value")
		}
		p.i = j
		return f, nil
	}
}

// object parses an object whose "{" is at p.i.
func (p *jsonParser) object(depth int) (any, error) {
	p.i++
	m := map[string]any{}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		p.space()
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.fail(`":"`)
		}
		p.i++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return m, nil
		}
		return nil, p.fail(`"," or "}"`)
	}
}

// array parses an array whose "[" is at p.i.
func (p *jsonParser) array(depth int) (any, error) {
	p.i++
	var a []any
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return a, nil
	}
	for {
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return a, nil
		}
		return nil, p.fail(`"," or "]"`)
	}
}

func (p *jsonParser) str() (string, error) {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", p.fail("a string")
	}
	j := p.i + 1
	for j < len(p.s) && p.s[j] != '"' {
		if p.s[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(p.s) {
		return "", p.fail(`a closing "`)
	}
	raw := p.s[p.i : j+1]
	// JSON's escapes are Go's but for \/ and surrogate pairs (an emoji is
	// \ud83d\ude00 in JSON, and strconv.Unquote refuses each half): both
	// are mapped first.
	v, err := strconv.Unquote(jsonEscapes(raw))
	if err != nil || !utf8.ValidString(v) {
		return "", p.fail("a valid string")
	}
	p.i = j + 1
	return v, nil
}

// jsonEscapes maps the escapes JSON has and Go does not: \/, and a
// surrogate pair \uD8xx\uDCxx, written as the character it encodes. A
// lone surrogate is left as it is, for strconv.Unquote to refuse.
func jsonEscapes(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			if s[i+1] == '/' {
				out = append(out, '/')
				i++
				continue
			}
			if r1, ok := hex4(s, i); ok && utf16.IsSurrogate(rune(r1)) {
				if r2, ok := hex4(s, i+6); ok {
					if r := utf16.DecodeRune(rune(r1), rune(r2)); r != utf8.RuneError {
						out = utf8.AppendRune(out, r)
						i += 11
						continue
					}
				}
			}
			out = append(out, s[i], s[i+1])
			i++
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}

// hex4 reads the escape \uXXXX at s[i:], if there is one there.
func hex4(s string, i int) (uint64, bool) {
	if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
		return 0, false
	}
	v, err := strconv.ParseUint(s[i+2:i+6], 16, 16)
	return v, err == nil
}
