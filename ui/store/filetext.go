package store

import "unsafe"

// FileText is the text an Upload carries for a file's bytes: the bytes as
// they are, not copied (the text shares b's memory, so b must not be
// changed afterwards; a 2.5 MB upload's copy took 10 ms of the page's main
// thread). The worker's reader decodes them (core's readRecords): a UTF-8
// byte order mark dropped, UTF-16 with a byte order mark decoded, binary
// data refused with the reason. The browser's File.text() decoded every
// file as UTF-8 instead, which turned UTF-16 into replacement characters
// before the reader saw it, and the SHA-256 a saved run records is now
// that of the file itself.
func FileText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
