package losscmd

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-rpg/fray/cli/internal/client"
	lossv1 "github.com/fray-rpg/fray/gen/fray/loss/v1"
	"github.com/fray-rpg/fray/rules/loss"
	"github.com/spf13/pflag"
)

// inspirationFlag is the --inspiration flag: "Courage=1,Honneur=2" (a bare "Courage" means 1).
// It may be repeated; the Vertus are matched regardless of case.
type inspirationFlag map[string]int32

func (f *inspirationFlag) String() string {
	if f == nil || len(*f) == 0 {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(*f)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, (*f)[k]))
	}
	return strings.Join(parts, ",")
}

// Type names the value in the usage.
func (*inspirationFlag) Type() string { return "vertu=N" }

func (f *inspirationFlag) Set(s string) error {
	m, err := ParseInspiration(s)
	if err != nil {
		return err
	}
	if *f == nil {
		*f = inspirationFlag{}
	}
	for k, v := range m {
		if _, dup := (*f)[k]; dup {
			return fmt.Errorf("Inspiration of %s given twice", k)
		}
		(*f)[k] = v
	}
	return nil
}

// ParseInspiration parses "Courage=1,Honneur=2" into Inspiration spent per Vertu.
func ParseInspiration(s string) (map[string]int32, error) {
	out := map[string]int32{}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, num, hasNum := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		n := int64(1)
		if hasNum {
			var err error
			n, err = strconv.ParseInt(strings.TrimSpace(num), 10, 32)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("Inspiration of %s: %q is not a count (0 or more)", name, strings.TrimSpace(num))
			}
		}
		vertu, ok := vertuOf(name)
		if !ok {
			return nil, fmt.Errorf("%q is not a Vertu: Inspiration is of %s", name, strings.Join(loss.Vertus, ", "))
		}
		if _, dup := out[vertu]; dup {
			return nil, fmt.Errorf("Inspiration of %s given twice", vertu)
		}
		out[vertu] = int32(n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty: give Vertu=N pairs such as Courage=1,Honneur=2")
	}
	return out, nil
}

// vertuOf matches a Vertu's name regardless of case.
func vertuOf(name string) (string, bool) {
	for _, v := range loss.Vertus {
		if strings.EqualFold(v, name) {
			return v, true
		}
	}
	return "", false
}

// SpendFlags are the --fursa, --inspiration and --free-raises flags of a Test.
type SpendFlags struct {
	Fursa       int
	Inspiration inspirationFlag
	freeRaises  int
}

func (s *SpendFlags) Register(fs *pflag.FlagSet) {
	fs.IntVar(&s.Fursa, "fursa", 0, "Fursa to spend on the Test, +5 each (a GM's character draws on the GM's reserve)")
	fs.Var(&s.Inspiration, "inspiration", "Inspiration to spend, +5 each: Vertu=N[,Vertu=N...] (Sagesse, Honneur, Courage); repeatable")
	fs.IntVar(&s.freeRaises, "free-raises", 0, "free raises (Augmentations Gratuites) to spend, +5 each (LOS-004)")
}

// Spend is the Spend of the flags, nil when nothing is spent.
func (s *SpendFlags) Spend() (*lossv1.Spend, error) {
	if s.Fursa < 0 {
		return nil, client.Usagef("--fursa %d: Fursa spent cannot be negative", s.Fursa)
	}
	if s.freeRaises < 0 {
		return nil, client.Usagef("--free-raises %d: free raises spent cannot be negative", s.freeRaises)
	}
	if s.Fursa == 0 && len(s.Inspiration) == 0 && s.freeRaises == 0 {
		return nil, nil
	}
	sp := &lossv1.Spend{Fursa: int32(s.Fursa), FreeRaises: int32(s.freeRaises)}
	if len(s.Inspiration) > 0 {
		sp.Inspiration = maps.Clone(map[string]int32(s.Inspiration))
	}
	return sp, nil
}
