package enginetest

import "google.golang.org/protobuf/reflect/protoreflect"

// Fill sets every field of m, down to depth messages deep (for a oneof, its last member), to a
// value that is not its default and differs with k: scalars, the first element of a list, the
// key "k" of a map with string keys.
func Fill(m protoreflect.Message, depth int, k int32) {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		switch {
		case fd.IsMap():
			if fd.MapKey().Kind() != protoreflect.StringKind {
				continue
			}
			key := protoreflect.ValueOfString("k").MapKey()
			if fd.MapValue().Message() != nil {
				if depth > 0 {
					Fill(m.Mutable(fd).Map().Mutable(key).Message(), depth-1, k)
				}
			} else if v, ok := scalar(fd.MapValue(), k); ok {
				m.Mutable(fd).Map().Set(key, v)
			}
		case fd.Message() != nil:
			if depth == 0 {
				continue
			}
			if !fd.IsList() {
				Fill(m.Mutable(fd).Message(), depth-1, k)
				continue
			}
			l := m.Mutable(fd).List()
			if l.Len() == 0 {
				l.Append(l.NewElement())
			}
			Fill(l.Get(0).Message(), depth-1, k)
		default:
			v, ok := scalar(fd, k)
			switch {
			case !ok:
			case !fd.IsList():
				m.Set(fd, v)
			case m.Get(fd).List().Len() == 0:
				m.Mutable(fd).List().Append(v)
			default:
				m.Mutable(fd).List().Set(0, v)
			}
		}
	}
}

// scalar is a value of fd's kind that differs with k.
func scalar(fd protoreflect.FieldDescriptor, k int32) (protoreflect.Value, bool) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(string(rune('a' + k))), true
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte{byte(k)}), true
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(k%2 == 1), true
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(protoreflect.EnumNumber(k)), true
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(k), true
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(int64(k)), true
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(k)), true
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(uint64(k)), true
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(k)), true
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(float64(k)), true
	}
	return protoreflect.Value{}, false
}
