// Package sheets is how a combatant's sheet is sent to the resolver once and then by digest:
// both ends digest a sheet the same way (Digest), and the resolver says which sheets it lacks
// in refusals of the rules' domain (WithReason, Reason).
package sheets
