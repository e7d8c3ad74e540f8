package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// messyCSV is a file as people have them: an id column (P001, …), a name,
// a category with three values, values missing (with holes) as NA, ?,
// empty and NaN in column a (data rows 4, 9, 16 and 23, so lines 5, 10, 17
// and 24; without, the numbers 1 to 4), and two classes that differ in a
// and b.
func messyCSV(withHoles bool) string {
	var b strings.Builder
	b.WriteString("id,name,kind,a,b,class\n")
	holes := map[int]string{3: "NA", 8: "?", 15: "", 22: "NaN"}
	fills := map[int]string{3: "1", 8: "2", 15: "3", 22: "4"}
	for i := range 60 {
		a := strconv.Itoa(i%2*4 + i%5)
		if h, ok := holes[i]; ok && withHoles {
			a = h
		} else if ok {
			a = fills[i]
		}
		fmt.Fprintf(&b, "P%03d,n%d,%c,%s,%d,%c\n", i+1, i, 'u'+rune(i%3), a, i%2*3+i%7, 'x'+rune(i%2))
	}
	return b.String()
}

// A real-world file: read at once, its rows with missing values dropped
// and counted beside the file; refused on request with the line of the
// first missing value, the file before it staying loaded and Train saying
// so; then read by the user's choices (fill missing values with the
// training mean, one-hot the category, the id column as ids, b left out),
// and trained.
func TestMessyFile(t *testing.T) {
	p := open(t, "")
	p.waitTrainEnabled()
	p.uploadLoaded("patients.csv", messyCSV(true))
	if m := p.text("message"); !strings.Contains(m, "4 rows with missing values were dropped") {
		t.Errorf("notice %q", m)
	}
	var inData bool
	p.eval(`!!document.querySelector('.panel.data [data-testid="message"]')`, &inData)
	if !inData {
		t.Error("the file's notice is not in the Data panel, beside the file")
	}
	p.set("missing", "")
	p.poll(`document.querySelector('[data-testid="status"]').textContent === "error"`, 10*time.Second)
	if m := p.text("message"); !strings.Contains(m, `line 5, column 4 ("a"): missing value "NA"`) {
		t.Errorf("message %q", m)
	}
	if b, f := p.text("train"), p.text("failed-file"); b != "Train patients.csv (still loaded)" || !strings.Contains(f, "patients.csv stays loaded, and Train trains it") {
		t.Errorf("Train %q, note %q", b, f)
	}
	if c := p.text("missing-count"); !strings.Contains(c, "4 missing cells") {
		t.Errorf("missing count %q", c)
	}

	p.set("missing", "mean")
	p.poll(`document.querySelector('[data-testid="dataset-select"]').selectedOptions[0].textContent.includes("patients.csv")`, 10*time.Second)
	p.waitTrainEnabled()
	msg := p.text("message")
	for _, want := range []string{`3 text columns ("id", "name", "kind") were left out`, "4 missing values in 4 rows are filled with the training mean"} {
		if !strings.Contains(msg, want) {
			t.Errorf("notice %q lacks %q", msg, want)
		}
	}
	if b := p.text("train"); b != "Train" {
		t.Errorf("Train reads %q once the file is loaded", b)
	}
	features := func() int {
		m := regexp.MustCompile(`(\d+) features`).FindStringSubmatch(p.text("summary"))
		if m == nil {
			t.Fatalf("summary %q", p.text("summary"))
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if n := features(); n != 2 {
		t.Errorf("%d features, want 2 (a, b)", n)
	}

	// The column chooser renders its rows once opened.
	p.run(clickQuery(`[data-testid="columns"] summary`))
	p.poll(`!!document.querySelector('[data-testid="role-2"]')`, 5*time.Second)
	p.set("role-2", "one-hot")
	p.poll(`document.querySelector('[data-testid="summary"]').textContent.includes("5 features")`, 10*time.Second)
	p.set("role-0", "id")
	p.poll(`document.querySelector('[data-testid="columns"] summary').textContent.includes("1 id")`, 10*time.Second)
	p.set("role-4", "excluded")
	p.poll(`document.querySelector('[data-testid="summary"]').textContent.includes("4 features")`, 10*time.Second)
	var roles []string
	p.eval(`[0,1,2,3,4].map(j => document.querySelector('[data-testid="role-' + j + '"]').value)`, &roles)
	if strings.Join(roles, ",") != "id,excluded,one-hot,feature,excluded" {
		t.Errorf("roles %q", roles)
	}
	p.waitTrainEnabled()
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	if e := p.text("error-learned"); e == "" || e == "—" || strings.Contains(e, "NaN") {
		t.Errorf("learned error %q", e)
	}
	p.screenshot("messy-file.png")
}

// Triplets from a file beside the data: by id, with a line-numbered error
// first (the labels' triplets stay in use), then by row number; η applies
// to them as given: no label triplets, no injected swaps.
func TestTripletFileUpload(t *testing.T) {
	p := open(t, "")
	p.waitTrainEnabled()
	p.set("flip", "0.2")
	p.uploadLoaded("patients.csv", messyCSV(false))
	p.run(clickQuery(`[data-testid="columns"] summary`))
	p.poll(`!!document.querySelector('[data-testid="role-0"]')`, 5*time.Second)
	p.set("role-0", "id")
	p.poll(`document.querySelector('[data-testid="triplets-by"]').textContent.includes("“id”")`, 10*time.Second)
	p.waitTrainEnabled()

	// Row i (0-based) of each class: similar to the next row of its class
	// (i+2), unlike the next of the other (i+1).
	var byID, byRow strings.Builder
	byID.WriteString("anchor,similar,dissimilar\n")
	for i := range 56 {
		fmt.Fprintf(&byID, "P%03d,P%03d,P%03d\n", i+1, i+3, i+2)
		fmt.Fprintf(&byRow, "%d,%d,%d\n", i+1, i+3, i+2)
	}
	bad := strings.Replace(byID.String(), "P003,P005,P004", "P003,P005,P999", 1)
	p.set("triplets-by", "id")
	p.run(uploadQuery(`[data-testid="triplets-input"]`, writeCSV(t, "bad.csv", bad)))
	p.poll(`document.querySelector('[data-testid="status"]').textContent === "error"`, 10*time.Second)
	if m := p.text("message"); !strings.Contains(m, `bad.csv: line 4, column 3 ("dissimilar"): no row has the id "P999"`) {
		t.Errorf("message %q", m)
	}
	var source string
	p.eval(`document.querySelector('[data-testid="triplet-source"]').value`, &source)
	if source != "labels" || !strings.Contains(p.text("triplets-file"), "bad.csv could not be read") {
		t.Errorf("source %q, note %q", source, p.text("triplets-file"))
	}

	p.run(uploadQuery(`[data-testid="triplets-input"]`, writeCSV(t, "ids.csv", byID.String())))
	p.poll(`document.querySelector('[data-testid="triplet-source"]').value === "file"`, 10*time.Second)
	note := p.text("triplets-file")
	m := regexp.MustCompile(`ids\.csv: 56 triplets read, (\d+) among the training rows \((\d+) touch a held-out row`).FindStringSubmatch(note)
	if m == nil {
		t.Fatalf("note %q", note)
	}
	used, _ := strconv.Atoi(m[1])
	held, _ := strconv.Atoi(m[2])
	var flip string
	p.eval(`document.querySelector('[data-testid="flip"]').value`, &flip)
	if used+held != 56 || used == 0 || flip != "0" || !strings.Contains(p.text("message"), "Injected noise is off") {
		t.Errorf("used %d + held out %d, flip %q, message %q", used, held, flip, p.text("message"))
	}
	p.waitTrainEnabled()
	run := p.shownRun()
	p.click("train")
	p.waitAfter(run, "converged", 60*time.Second)
	if c := p.text("triplet-count"); c != "Last run: "+strconv.Itoa(used)+" triplets, 0 of them swapped." {
		t.Errorf("count %q, want %d triplets, none swapped", c, used)
	}

	// The same triplets by row number (from 1) train the same problem.
	p.set("triplets-by", "row1")
	p.run(uploadQuery(`[data-testid="triplets-input"]`, writeCSV(t, "rows.csv", byRow.String())))
	p.poll(`document.querySelector('[data-testid="triplets-file"]').textContent.startsWith("rows.csv: 56 triplets read, `+strconv.Itoa(used)+` among")`, 10*time.Second)
	p.waitTrainEnabled()
	run = p.shownRun()
	p.click("train")
	p.waitAfter(run, "converged", 60*time.Second)
	if c := p.text("triplet-count"); c != "Last run: "+strconv.Itoa(used)+" triplets, 0 of them swapped." {
		t.Errorf("by row: count %q", c)
	}
	// Back to the labels' triplets: k_same × k_diff per training row.
	p.set("triplet-source", "labels")
	p.set("flip", "0.2")
	run = p.shownRun()
	p.click("train")
	p.waitAfter(run, "converged", 60*time.Second)
	// 50 training rows (60, 10 held out) × 3 × 3, 20% of them swapped.
	if c := p.text("triplet-count"); !strings.HasPrefix(c, "Last run: 450 triplets") {
		t.Errorf("labels: count %q", c)
	}
}

// clickQuery clicks the element a CSS selector finds.
func clickQuery(sel string) chromedp.Action { return chromedp.Click(sel, chromedp.ByQuery) }

// uploadQuery gives a file to the file input a CSS selector finds.
func uploadQuery(sel, file string) chromedp.Action {
	return chromedp.SetUploadFiles(sel, []string{file}, chromedp.ByQuery)
}

// Files in other encodings reach the reader as the bytes they are: UTF-16
// with a byte order mark is decoded and the page says so (the browser's
// File.text(), used before, decoded it as UTF-8 into replacement
// characters), a UTF-8 byte order mark is not part of the first column's
// name, and a binary file is refused with the reason.
func TestFileEncodings(t *testing.T) {
	p := open(t, "")
	p.waitTrainEnabled()
	var csv strings.Builder
	csv.WriteString("größe,b,class\n")
	for i := range 40 {
		fmt.Fprintf(&csv, "%d,%d,%c\n", i%2*5+i%3, i%7, 'x'+rune(i%2))
	}
	utf16 := []byte{0xff, 0xfe}
	for _, r := range csv.String() {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	p.uploadLoaded("utf16.csv", string(utf16))
	if m := p.text("message"); !strings.Contains(m, "UTF-16 (little-endian)") {
		t.Errorf("UTF-16 file: message %q does not say how it was read", m)
	}
	var head []string
	p.eval(`[...document.querySelectorAll('[data-testid="preview"] tr:first-child th')].map(e => e.textContent)`, &head)
	if len(head) == 0 || head[0] != "größe" {
		t.Errorf("UTF-16 file: preview header %q, want größe first", head)
	}
	p.click("train")
	p.waitResult("converged", 60*time.Second)

	p.uploadLoaded("bom.csv", "\xef\xbb\xbf"+strings.Replace(csv.String(), "größe", "a", 1))
	p.eval(`[...document.querySelectorAll('[data-testid="preview"] tr:first-child th')].map(e => e.textContent)`, &head)
	if len(head) == 0 || head[0] != "a" {
		t.Errorf("UTF-8 file with a byte order mark: preview header %q, want a first", head)
	}

	p.upload(writeCSV(t, "image.csv", "a,b,class\n1,2,x\n\x00\x01\x02\x03"))
	p.poll(`document.querySelector('[data-testid="status"]').textContent === "error"`, 10*time.Second)
	if m := p.text("message"); !strings.Contains(m, "NUL byte") {
		t.Errorf("binary file: message %q", m)
	}
}
