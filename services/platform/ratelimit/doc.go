// Package ratelimit keeps each principal, and each tenant, to its rate of calls (token
// buckets, a tenant's budget shared fairly among its active principals), refusing past it with
// ResourceExhausted and when to retry. A call costs by its method (Resolve by its combatants,
// a watch more than a read); a service charges more while it runs (Charge).
package ratelimit
