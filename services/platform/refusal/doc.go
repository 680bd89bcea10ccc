// Package refusal is how a fray service says no, as gRPC statuses a client can act on: every
// refusal carries a google.rpc.ErrorInfo of domain "fray" naming its reason.
//
// Three kinds of refusal, three names:
//   - engine.Refused (rules/engine) is the rules refusing a command in the current state; Status
//     maps it, with the engine's other rule errors, to its gRPC code.
//   - New is a refusal a service gives itself (no such encounter, no role in it), with a reason.
//   - OverLimit is a request refused for going past a named limit (ResourceExhausted, reason
//     LIMIT_EXCEEDED); the metrics count it by that limit (fray_limit_refusals_total).
package refusal
