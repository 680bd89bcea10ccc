package platform

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"time"
)

// envOfUsage finds the environment variable a flag's usage names ("(env FRAY_GRACE)",
// "…; env FRAY_TLS_CA)").
var envOfUsage = regexp.MustCompile(`\benv (FRAY_[A-Z0-9_]+)`)

// ParseFlags parses args, then sets every flag not given on the command line from the
// environment variable its usage names ("env FRAY_…"), when that variable is set and not
// empty. A value the flag refuses is an error naming the variable ("FRAY_REPLICAS: \"abc\"
// is not a whole number"), never a silent fall back to the default.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	return ApplyEnv(fs)
}

// ApplyEnv is ParseFlags' second half, for a flag set already parsed.
func ApplyEnv(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		env := EnvOf(f)
		if env == "" || given[f.Name] {
			return
		}
		v := os.Getenv(env)
		if v == "" {
			return
		}
		if err := f.Value.Set(v); err != nil {
			errs = append(errs, fmt.Errorf("%s: %q is not %s", env, v, kindOf(f.Value, err)))
		}
	})
	return errors.Join(errs...)
}

// EnvOf is the environment variable of a flag, named in its usage ("env FRAY_…"), or "".
func EnvOf(f *flag.Flag) string {
	if m := envOfUsage.FindStringSubmatch(f.Usage); m != nil {
		return m[1]
	}
	return ""
}

// FlagError is an error about the value of flag name of fs, naming its environment variable
// too: "--replicas (FRAY_REPLICAS) 7: JetStream keeps 1 to 5 replicas".
func FlagError(fs *flag.FlagSet, name, format string, args ...any) error {
	f := fs.Lookup(name)
	if f == nil {
		return fmt.Errorf("--%s: "+format, append([]any{name}, args...)...)
	}
	which := "--" + name
	if env := EnvOf(f); env != "" {
		which += " (" + env + ")"
	}
	return fmt.Errorf("%s %s: %s", which, f.Value.String(), fmt.Sprintf(format, args...))
}

// kindOf says what a flag's value must be.
func kindOf(v flag.Value, err error) string {
	g, ok := v.(flag.Getter)
	if !ok {
		return fmt.Sprintf("accepted: %v", err)
	}
	switch g.Get().(type) {
	case int, int64, uint, uint64:
		return "a whole number"
	case float64:
		return "a number"
	case bool:
		return "true or false (or 1, t, T, TRUE, 0, f, F, FALSE)"
	case time.Duration:
		return "a duration such as 500ms, 10s, 5m or 1h30m"
	}
	return fmt.Sprintf("accepted: %v", err)
}
