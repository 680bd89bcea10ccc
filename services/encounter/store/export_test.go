package store

// SetWalkBack sets how many records Load walks back before it reads forward (for
// benchmarks), and returns a function that restores it.
func SetWalkBack(n int) (restore func()) {
	old := walkBack
	walkBack = n
	return func() { walkBack = old }
}
