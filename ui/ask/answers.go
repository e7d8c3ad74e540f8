package ask

import (
	"errors"
	"strconv"
	"strings"
)

// AnswersText writes answers as the page keeps them in the browser, one a
// line: "anchor,left,right,kind,of,choice" (kind 0 training, 1 held out, 2
// a repeat of answer "of"; choice 0 can't tell, 1 left, 2 right). Unlike
// the answers' file it keeps what each question was for, and the skips.
func AnswersText(answers []Answer) string {
	var b strings.Builder
	for _, a := range answers {
		for i, v := range []int{a.Anchor, a.Left, a.Right, int(a.Kind), a.Of, int(a.Choice)} {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(v))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ParseAnswers reads what AnswersText wrote for the items it, checking
// every field.
func ParseAnswers(it *Items, text string) ([]Answer, error) {
	var out []Answer
	for n, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if line == "" && n == 0 {
			break
		}
		f := strings.Split(line, ",")
		if len(f) != 6 {
			return nil, errors.New("line " + strconv.Itoa(n+1) + ": " + strconv.Itoa(len(f)) + " fields, expected 6")
		}
		var v [6]int
		for i, s := range f {
			x, err := strconv.Atoi(s)
			if err != nil || x < 0 {
				return nil, errors.New("line " + strconv.Itoa(n+1) + ", field " + strconv.Itoa(i+1) + ": " + strconv.Quote(s) + " is not a whole number")
			}
			v[i] = x
		}
		a := Answer{Question{Anchor: v[0], Left: v[1], Right: v[2], Kind: Kind(v[3]), Of: v[4]}, Choice(v[5])}
		switch {
		case v[0] >= it.Len() || v[1] >= it.Len() || v[2] >= it.Len() || v[0] == v[1] || v[0] == v[2] || v[1] == v[2]:
			return nil, errors.New("line " + strconv.Itoa(n+1) + ": items " + strconv.Itoa(v[0]) + ", " + strconv.Itoa(v[1]) + ", " + strconv.Itoa(v[2]) + ": expected three different items below " + strconv.Itoa(it.Len()))
		case a.Kind > Repeat || a.Choice > Right:
			return nil, errors.New("line " + strconv.Itoa(n+1) + ": kind " + strconv.Itoa(v[3]) + ", choice " + strconv.Itoa(v[5]) + ": expected a kind 0–2 and a choice 0–2")
		case a.Kind == Repeat && a.Of >= n:
			return nil, errors.New("line " + strconv.Itoa(n+1) + " repeats answer " + strconv.Itoa(a.Of) + ", which is not before it")
		}
		out = append(out, a)
	}
	return out, nil
}
