package d20seg

// WithNumbers is s with other numbers, under the same version: a test builds a changed
// version with it, never the code.
func WithNumbers(s System, n Numbers) System {
	s.n = n
	return s
}
