package client

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// EnumChoices lists the values of a proto enum by CLI name: the value name without prefix,
// in lower case with dashes ("RANGE_ARMS_LENGTH" → "arms-length"), plus aliases. New values
// of the API get a name without a change here.
type EnumChoices struct {
	Names  []string
	values map[string]protoreflect.EnumNumber
}

func NewEnumChoices(ed protoreflect.EnumDescriptor, prefix string, aliases map[string]string) EnumChoices {
	c := EnumChoices{values: map[string]protoreflect.EnumNumber{}}
	rename := map[string]string{}
	for alias, full := range aliases {
		rename[full] = alias
	}
	for i := range ed.Values().Len() {
		v := ed.Values().Get(i)
		if v.Number() == 0 {
			continue
		}
		name := strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(string(v.Name()), prefix)), "_", "-")
		if alias, ok := rename[name]; ok {
			c.values[name] = v.Number() // the full name is still understood
			name = alias
		}
		c.Names = append(c.Names, name)
		c.values[name] = v.Number()
	}
	return c
}

// Parse reads a name in any case, with dashes, underscores or spaces.
func (c EnumChoices) Parse(what, s string) (protoreflect.EnumNumber, error) {
	key := strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '-' || r == '_' || r == ' ' }), "-")
	if v, ok := c.values[key]; ok {
		return v, nil
	}
	return 0, fmt.Errorf("%s %q: %s", what, s, strings.Join(c.Names, ", "))
}

func (c EnumChoices) List() string { return strings.Join(c.Names, "|") }

// FoldName folds a name for matching: lower case, no accents, dashes and underscores as
// spaces ("coute-que-coute" matches "Coûte que coûte").
func FoldName(s string) string {
	r := strings.NewReplacer("à", "a", "â", "a", "ç", "c", "é", "e", "è", "e", "ê", "e", "ë", "e", "î", "i", "ï", "i",
		"ô", "o", "œ", "oe", "ù", "u", "û", "u", "ü", "u", "-", " ", "_", " ")
	return strings.Join(strings.Fields(r.Replace(strings.ToLower(s))), " ")
}
