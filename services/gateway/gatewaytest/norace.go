//go:build !race

package gatewaytest

// allocFactor: see race.go.
const allocFactor = 1
