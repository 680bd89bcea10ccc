package feerie

// WithNumbers is s with its numbers edited: a version whose numbers differ from any released
// one, so that a test shows what reads them (and what must not).
func WithNumbers(s System, edit func(*Numbers)) System {
	edit(&s.n)
	return s
}
