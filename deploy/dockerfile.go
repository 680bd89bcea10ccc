package deploy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Instruction is one line of a Dockerfile (continuations joined): its keyword in upper case,
// its leading --flags (RUN --mount=…, COPY --from=…) and the rest.
type Instruction struct {
	Line    int
	Keyword string
	Flags   []string
	Args    string
}

// Exec is the instruction's arguments in exec form (a JSON array of strings), or nil and
// false when they are in shell form.
func (in Instruction) Exec() ([]string, bool) {
	var argv []string
	if !strings.HasPrefix(in.Args, "[") || json.Unmarshal([]byte(in.Args), &argv) != nil {
		return nil, false
	}
	return argv, true
}

// Flag is the value of the instruction's --name=value flag.
func (in Instruction) Flag(name string) (string, bool) {
	for _, f := range in.Flags {
		if v, ok := strings.CutPrefix(f, "--"+name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// Stage is a FROM and the instructions up to the next one.
type Stage struct {
	Name, Base string
	FromFlags  []string
	Body       []Instruction
}

// ParseDockerfile reads the stages of a Dockerfile: enough of the syntax for fray's (comments,
// parser directives, backslash continuations, flags, exec and shell forms), not heredocs.
func ParseDockerfile(path string) ([]Stage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		stages  []Stage
		pending strings.Builder
		start   int
	)
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if pending.Len() == 0 && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if pending.Len() > 0 && strings.HasPrefix(line, "#") {
			continue // a comment inside a continued instruction
		}
		if pending.Len() == 0 {
			start = n
		}
		if cont, ok := strings.CutSuffix(line, "\\"); ok {
			pending.WriteString(cont + " ")
			continue
		}
		pending.WriteString(line)
		in, err := parseInstruction(start, pending.String())
		pending.Reset()
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, start, err)
		}
		if in.Keyword == "FROM" {
			words := strings.Fields(in.Args)
			st := Stage{Base: words[0], FromFlags: in.Flags}
			if len(words) == 3 && strings.EqualFold(words[1], "AS") {
				st.Name = words[2]
			} else if len(words) != 1 {
				return nil, fmt.Errorf("%s:%d: FROM %s", path, start, in.Args)
			}
			stages = append(stages, st)
			continue
		}
		if len(stages) == 0 {
			if in.Keyword == "ARG" {
				continue // a global ARG
			}
			return nil, fmt.Errorf("%s:%d: %s before any FROM", path, start, in.Keyword)
		}
		stages[len(stages)-1].Body = append(stages[len(stages)-1].Body, in)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if pending.Len() > 0 {
		return nil, fmt.Errorf("%s: ends inside a continued line", path)
	}
	return stages, nil
}

func parseInstruction(line int, s string) (Instruction, error) {
	kw, rest, _ := strings.Cut(s, " ")
	in := Instruction{Line: line, Keyword: strings.ToUpper(kw)}
	rest = strings.TrimSpace(rest)
	for strings.HasPrefix(rest, "--") {
		flag, after, _ := strings.Cut(rest, " ")
		in.Flags = append(in.Flags, flag)
		rest = strings.TrimSpace(after)
	}
	in.Args = rest
	if in.Args == "" {
		return in, fmt.Errorf("%s without arguments", in.Keyword)
	}
	return in, nil
}

// EnvPairs reads an ENV instruction's key=value pairs (the form fray's Dockerfile uses),
// expanding ${NAME} and $NAME from vars.
func EnvPairs(in Instruction, vars map[string]string) (map[string]string, error) {
	out := map[string]string{}
	for _, w := range strings.Fields(in.Args) {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: ENV %s: only the key=value form is read", in.Line, in.Args)
		}
		out[k] = os.Expand(v, func(name string) string { return vars[name] })
	}
	return out, nil
}
