package dice

// VerifierCost reports what a Verifier's Scheme1 stream cost to position (SeekCost of it):
// zeros before it verified a Scheme1 roll.
func VerifierCost(v *Verifier) (keys, skipped uint64) {
	if v.s1 == nil {
		return 0, 0
	}
	return SeekCost(v.s1)
}
