// Package platform is what every fray service shares, one package per concern: auth (tokens),
// identity (the caller), validate (requests), ratelimit, refusal (how a service says no),
// telemetry (metrics, traces, logs), natsconn (NATS), sheets (sheets sent by digest) and
// server, which wires them into one gRPC server. What is left here is configuration: flags and
// the environment variables that stand for them (flags.go, env.go).
package platform
