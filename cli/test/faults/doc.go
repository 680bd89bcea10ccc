// Package faults runs fray's hosted topology on one machine and hurts it: three clustered
// nats-server processes with JetStream (the event stream and buckets at three replicas), two
// resolvers under one DNS name and two encounter services, every one a real OS process built
// from this repository. Where it may (root, Linux), each NATS node runs in a network namespace
// of its own behind a router namespace, so that a node can be cut off from its peers or from
// everyone; the resolvers listen on loopback addresses of their own (127.0.0.2…), found
// through a name the harness's own DNS server answers, as the encounter services find a
// headless Service's pods. `fray load`'s fights play through both encounter services while
// the plan kills -9 a NATS node and restarts it, kills -9 each encounter service and
// restarts it, freezes (SIGSTOP) the stream's leader, partitions a NATS node, restarts the
// encounter services one after the other, adds a resolver and kills one. Afterwards it reads
// the log itself and checks that no acknowledged command was lost, none recorded twice, no
// history forked, and that every encounter passes `fray audit verify`; it finds what the
// clients were told that the log contradicts (NotFound for an encounter that exists, a refusal
// decided on a stale state); it reports the share of calls and commands that succeeded during
// each fault, how long the topology took to serve again after it, what the encounter
// services' health said of a node's loss, and how soon a new resolver got its share of calls.
package faults
