//go:build unix

package faults

import (
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
)

func slowAttempts(cmds []*Command, t0 time.Time) string {
	var b strings.Builder
	for _, c := range cmds {
		for i, a := range c.Attempts {
			if a.Code == codes.DeadlineExceeded || a.End.Sub(a.Start) > time.Second {
				fmt.Fprintf(&b, "%s %s enc=%s attempt %d replica %d start +%v took %v code %v\n", short(c.Method), c.CommandID, c.Encounter, i+1, a.Replica, a.Start.Sub(t0).Round(time.Millisecond), a.End.Sub(a.Start).Round(time.Millisecond), a.Code)
			}
		}
	}
	return b.String()
}
