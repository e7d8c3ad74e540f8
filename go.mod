module github.com/rml-lab/rml

go 1.26.8

require (
	github.com/chromedp/cdproto v0.0.0-20250120090109-d38428e4d9c8
	github.com/chromedp/chromedp v0.12.1
	github.com/hexops/vecty v0.6.0
	golang.org/x/net v0.62.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/chromedp/sysutil v1.1.0 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/pool v0.2.1 // indirect
	github.com/gobwas/ws v1.4.0 // indirect
	github.com/josharian/intern v1.0.0 // indirect
	github.com/mailru/easyjson v0.9.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
