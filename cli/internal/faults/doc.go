// Package faults runs fray's hosted topology on one machine and hurts it: three clustered
// nats-server processes with JetStream (the event stream and buckets at three replicas), two
// resolvers and two encounter services, every one a real OS process built from this
// repository and listening on a free 127.0.0.1 port. `fray load`'s fights play through both
// encounter services while the plan kills -9 a NATS node and restarts it, kills -9 each
// encounter service and restarts it, and freezes (SIGSTOP) the stream's leader. Afterwards it
// reads the log itself and checks that no acknowledged command was lost, none recorded twice,
// no history forked, and that every encounter passes `fray audit verify`; it reports the share
// of calls and commands that succeeded during each fault and how long the topology took to
// serve again after it.
package faults
