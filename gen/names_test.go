// Package gen_test checks the names fray's protos give to the code generated from them in
// other languages.
package gen_test

import (
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	_ "github.com/fray-rpg/fray/gen/fray/d20seg/v1"
	_ "github.com/fray-rpg/fray/gen/fray/dice/v1"
	_ "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	_ "github.com/fray-rpg/fray/gen/fray/feerie/v1"
	_ "github.com/fray-rpg/fray/gen/fray/invite/v1"
	_ "github.com/fray-rpg/fray/gen/fray/ka/v1"
	_ "github.com/fray-rpg/fray/gen/fray/loss/v1"
	_ "github.com/fray-rpg/fray/gen/fray/rules/v1"
	_ "github.com/fray-rpg/fray/gen/fray/ruleset/v1"
)

// Reserved words that cannot name a variable, an attribute or a keyword argument in the
// languages clients are most often written in. A field named after one (`pass`, `from`) cannot
// be passed as a keyword argument in Python (and is left out of its type stubs), and is awkward
// everywhere else. The JSON name (json_name) may keep such a word: it is a string, never an
// identifier.
var reserved = map[string][]string{
	// keyword.kwlist of Python 3.13; the soft keywords (match, case, type, _) are valid names.
	"Python": {"False", "None", "True", "and", "as", "assert", "async", "await", "break",
		"class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
		"global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
		"raise", "return", "try", "while", "with", "yield"},
	// ECMAScript's reserved words, those of strict mode (ES modules are strict) and the
	// literals; TypeScript reserves the same.
	"JavaScript/TypeScript": {"await", "break", "case", "catch", "class", "const", "continue",
		"debugger", "default", "delete", "do", "else", "enum", "export", "extends", "false",
		"finally", "for", "function", "if", "implements", "import", "in", "instanceof",
		"interface", "let", "new", "null", "package", "private", "protected", "public",
		"return", "static", "super", "switch", "this", "throw", "true", "try", "typeof", "var",
		"void", "while", "with", "yield"},
	// The Go spec's keywords.
	"Go": {"break", "case", "chan", "const", "continue", "default", "defer", "else",
		"fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map",
		"package", "range", "return", "select", "struct", "switch", "type", "var"},
}

// reservedIn lists the languages in which name is a reserved word.
func reservedIn(name string) []string {
	var langs []string
	for lang, words := range reserved {
		if slices.Contains(words, name) {
			langs = append(langs, lang)
		}
	}
	slices.Sort(langs)
	return langs
}

// names lists every name a file declares that generated code turns into an identifier:
// messages (nested too), their fields and oneofs, enums and their values, services and
// methods; each with its full name, for the error message.
func names(fd protoreflect.FileDescriptor) map[string]protoreflect.Name {
	out := map[string]protoreflect.Name{}
	add := func(d protoreflect.Descriptor) { out[string(d.FullName())] = d.Name() }
	var enums func(protoreflect.EnumDescriptors)
	enums = func(es protoreflect.EnumDescriptors) {
		for i := range es.Len() {
			e := es.Get(i)
			add(e)
			for j := range e.Values().Len() {
				add(e.Values().Get(j))
			}
		}
	}
	var messages func(protoreflect.MessageDescriptors)
	messages = func(ms protoreflect.MessageDescriptors) {
		for i := range ms.Len() {
			m := ms.Get(i)
			if m.IsMapEntry() {
				continue // key and value: named by protoc
			}
			add(m)
			for j := range m.Fields().Len() {
				add(m.Fields().Get(j))
			}
			for j := range m.Oneofs().Len() {
				add(m.Oneofs().Get(j))
			}
			enums(m.Enums())
			messages(m.Messages())
		}
	}
	messages(fd.Messages())
	enums(fd.Enums())
	for i := range fd.Services().Len() {
		s := fd.Services().Get(i)
		add(s)
		for j := range s.Methods().Len() {
			add(s.Methods().Get(j))
		}
	}
	return out
}

// frayFiles are the registered files of fray's own protos, by path.
func frayFiles() map[string]protoreflect.FileDescriptor {
	files := map[string]protoreflect.FileDescriptor{}
	protoregistry.GlobalFiles.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		if strings.HasPrefix(string(fd.Package()), "fray.") {
			files[fd.Path()] = fd
		}
		return true
	})
	return files
}

// TestNoNameIsAReservedWord: no message, field, oneof, enum, enum value, service or method of
// fray's protos is named after a reserved word of Python, JavaScript/TypeScript or Go.
func TestNoNameIsAReservedWord(t *testing.T) {
	files := frayFiles()
	if len(files) == 0 {
		t.Fatal("no fray proto is registered")
	}
	for _, path := range slices.Sorted(maps.Keys(files)) {
		all := names(files[path])
		for _, full := range slices.Sorted(maps.Keys(all)) {
			if langs := reservedIn(string(all[full])); len(langs) > 0 {
				t.Errorf("%s: %s is named %q, a reserved word in %s: rename it (keep its number, and its JSON name with [json_name = %q] when it is released)",
					path, full, all[full], strings.Join(langs, ", "), all[full])
			}
		}
	}
}

// TestEveryProtoIsChecked: every .proto under proto/ is among the files the check above
// reads, so a new file cannot slip past it for want of an import in this test.
func TestEveryProtoIsChecked(t *testing.T) {
	files := frayFiles()
	var missing []string
	err := filepath.WalkDir(filepath.Join("..", "proto"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".proto" {
			return err
		}
		rel, err := filepath.Rel(filepath.Join("..", "proto"), p)
		if err != nil {
			return err
		}
		if files[filepath.ToSlash(rel)] == nil {
			missing = append(missing, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Errorf("not registered in this test (import their generated package in names_test.go): %v", missing)
	}
}

// TestTheCheckFindsReservedWords: the lists hold what they must, and the walk sees every
// kind of name.
func TestTheCheckFindsReservedWords(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"pass", []string{"Python"}},
		{"from", []string{"Python"}},
		{"for", []string{"Go", "JavaScript/TypeScript", "Python"}},
		{"range", []string{"Go"}},
		{"type", []string{"Go"}},
		{"new", []string{"JavaScript/TypeScript"}},
		{"None", []string{"Python"}},
		{"pass_turn", nil},
		{"Pass", nil},
		{"match", nil},
	} {
		if got := reservedIn(tc.name); !slices.Equal(got, tc.want) {
			t.Errorf("reservedIn(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	files := frayFiles()
	all := names(files["fray/loss/v1/loss.proto"])
	for full, name := range map[string]protoreflect.Name{
		"fray.loss.v1.Action":                  "Action",                  // a message
		"fray.loss.v1.Action.pass_turn":        "pass_turn",               // a field
		"fray.loss.v1.Action.kind":             "kind",                    // a oneof
		"fray.loss.v1.ShieldSize":              "ShieldSize",              // an enum
		"fray.loss.v1.SHIELD_SIZE_UNSPECIFIED": "SHIELD_SIZE_UNSPECIFIED", // an enum value
	} {
		if all[full] != name {
			t.Errorf("the walk misses %s (%q): got %q", full, name, all[full])
		}
	}
	enc := names(files["fray/encounter/v1/encounter.proto"])
	if enc["fray.encounter.v1.Snapshot.RecentCommand"] != "RecentCommand" {
		t.Errorf("the walk misses nested messages")
	}
	svc := names(files["fray/encounter/v1/encounter_service.proto"])
	if svc["fray.encounter.v1.EncounterService.Submit"] != "Submit" {
		t.Errorf("the walk misses the methods of a service")
	}
}
