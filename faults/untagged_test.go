//go:build !full

package faults

import "testing"

// The fault tests are built only with the build tag full, as .ci/run builds
// them: they start the real binary and kill it, which go test -short ./...
// skips anyway, and linking them took seconds of it (issue 37).
func TestFaultSuiteIsTaggedFull(t *testing.T) {
	t.Skip("the fault tests are built with -tags full: go test -tags full ./faults (README, Two commands)")
}
