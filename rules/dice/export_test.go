package dice

// SeekCost reports what positioning s cost: ChaCha8 keys derived and words drawn only to
// reach a position (both counted from the stream's creation).
func SeekCost(s *Stream) (keys, skipped uint64) { return s.keys, s.skipped }

// Word draws one raw word of s.
func Word(s *Stream) uint64 { return s.word() }

// Seek2 opens a scheme-2 stream at any offset, the bound not checked, to count what a
// position costs beyond it too.
func Seek2(seed []byte, offset uint64) (*Stream, error) { return seek2(seed, offset) }
