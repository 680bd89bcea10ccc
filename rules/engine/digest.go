package engine

import (
	"crypto/sha256"

	encounterv1 "github.com/fray-rpg/fray/gen/fray/encounter/v1"
	"google.golang.org/protobuf/proto"
)

// CommandDigest is the sha256 of a command and the principal who gave it, recorded on the
// first event of the command's events (Event.command_digest): a command id sent again is the
// same command only if its digest is. The command is encoded deterministically (fields in
// order, maps sorted), so the same command always gives the same digest.
func CommandDigest(cmd *encounterv1.Command, actor string) []byte {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(cmd)
	if err != nil { // only for a message that cannot be encoded at all: no digest matches it
		return nil
	}
	h := sha256.New()
	h.Write([]byte("fray command v1\x00"))
	h.Write([]byte(actor))
	h.Write([]byte{0})
	h.Write(b)
	return h.Sum(nil)
}
