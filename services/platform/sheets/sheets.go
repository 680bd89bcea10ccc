package sheets

// Sheets sent once to the resolver: the encounter service sends each combatant's sheet in
// full the first time and then only its digest (ResolveRequest.sheet_sha256); the resolver
// keeps the sheets it was sent under their digests, and says when it lacks one (a replica that
// never saw it, or evicted it) so that the caller sends them again, in full. Both ends digest
// a sheet the same way, here.

import (
	"crypto/sha256"
	"errors"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// The ErrorInfo of the resolver's refusals about sheets (domain RulesDomain).
const (
	RulesDomain = "fray.rules.v1"
	// ReasonSheetsNotCached: FailedPrecondition, the resolver holds no sheet under some
	// digest of the request; metadata "combatants" lists those combatants' ids (at most 16).
	ReasonNotCached = "SHEETS_NOT_CACHED"
	// ReasonSheetDigestMismatch: InvalidArgument, a combatant's sheet was sent with a digest
	// that is not its own; metadata "combatant" is its id.
	ReasonDigestMismatch = "SHEET_DIGEST_MISMATCH"
)

// SheetDigest is the sha256 of the deterministic encoding of a Combatant holding only c's
// sheet (its kind included: the oneof's field number); nil if c has none.
func Digest(c *encounterv1.Combatant) []byte {
	if c.GetSheet() == nil {
		return nil
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(&encounterv1.Combatant{Sheet: c.Sheet})
	if err != nil {
		return nil // a sheet that does not encode is sent in full, never by digest
	}
	h := sha256.Sum256(b)
	return h[:]
}

// WithReason is the status error of code c and message msg carrying an ErrorInfo of
// RulesDomain with reason and metadata.
func WithReason(c codes.Code, msg, reason string, metadata map[string]string) error {
	st := status.New(c, msg)
	if d, err := st.WithDetails(&errdetails.ErrorInfo{Reason: reason, Domain: RulesDomain, Metadata: metadata}); err == nil {
		st = d
	}
	return st.Err()
}

// Reason is the reason of the RulesDomain ErrorInfo that err carries, or "".
func Reason(err error) string {
	var se interface{ GRPCStatus() *status.Status }
	if !errors.As(err, &se) {
		return ""
	}
	for _, d := range se.GRPCStatus().Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetDomain() == RulesDomain {
			return info.GetReason()
		}
	}
	return ""
}
