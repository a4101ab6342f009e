//go:build !full

package e2e

import "testing"

// The browser tests are built only with the build tag full, as .ci/run
// builds them. Without it this package's test binary is this one message,
// not the whole site and chromedp, which took most of the linking time of
// go test -short ./... (issue 37).
func TestBrowserSuiteIsTaggedFull(t *testing.T) {
	t.Skip("the browser tests are built with -tags full: go test -tags full ./e2e (README, Two commands)")
}
