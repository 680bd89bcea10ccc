// Package browser holds the end-to-end tests of fray's encounter page (web/): fray dev run in
// process with its browser listener, the page driven in a real headless Chromium by chromedp,
// a GM and a player in two browser contexts.
package browser
