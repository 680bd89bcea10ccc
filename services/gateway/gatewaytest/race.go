//go:build race

package gatewaytest

// allocFactor: under the race detector, a buffer's growth allocates twice (the compiler
// does not fold bytes.Buffer's append-make into one allocation in instrumented code).
const allocFactor = 2
