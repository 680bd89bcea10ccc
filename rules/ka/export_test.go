package ka

// WithNumbers is a System of version whose numbers are n: a test changes one number of a
// version and shows the others unchanged. Outside tests a version's numbers are those it was
// released with.
func WithNumbers(version uint32, n Numbers) System {
	s := New(version)
	s.n = n.clone()
	return s
}
