// Package natsconn is how fray's services reach NATS JetStream: an embedded server (fray dev,
// tests), the users and permissions of the encounter service and the auditor, and the flags
// and connection options of a service that dials a cluster.
package natsconn
