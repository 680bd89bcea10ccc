// Package identity is the caller of a request as the services know it — tenant, subject,
// scopes, the encounter an invite binds it to — carried in the request's context, and the
// rules a tenant's or a subject's name follows.
package identity
