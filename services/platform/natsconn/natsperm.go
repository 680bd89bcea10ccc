package natsconn

import (
	"github.com/nats-io/nats-server/v2/server"
)

// The NATS identities of a fray deployment and what each may do (deploy/nats/permissions.conf
// is the same, as nats-server configuration; a test keeps the two equal).
//
//   - The encounter service owns the event stream FRAY_ENCOUNTERS (subjects fray.enc.<id>) and
//     the KV buckets FRAY_SEEDS (each live encounter's dice seed), FRAY_SNAPSHOTS (folded
//     states) and FRAY_INDEX (each encounter's summary and each principal's encounters, for
//     ListEncounters; derived from the log). It takes its replies on its own inbox prefix, EncounterInboxPrefix, that no one
//     else may subscribe to: a seed read by the service travels only there.
//   - The auditor (fray replay, export, audit verify, audit tail) reads the event stream: stream
//     info, direct gets, consumers on FRAY_ENCOUNTERS and their acks. It may not touch the two
//     buckets (neither the $KV subjects nor any JetStream API of their streams KV_FRAY_SEEDS and
//     KV_FRAY_SNAPSHOTS) nor write the log.
const (
	// EncounterUser and AuditorUser are the user names `fray dev` gives them.
	EncounterUser = "encounter"
	AuditorUser   = "auditor"
	// EncounterInboxPrefix is the encounter service's reply inbox: only it may subscribe there.
	EncounterInboxPrefix = "_INBOX_FRAY_ENCOUNTER"

	natsStream      = "FRAY_ENCOUNTERS"
	natsSubjects    = "fray.enc.>"
	natsSeedsKV     = "FRAY_SEEDS"
	natsSnapshotsKV = "FRAY_SNAPSHOTS"
	natsIndexKV     = "FRAY_INDEX"
)

// EncounterPermissions is what the encounter service needs, for the default stream and bucket
// names: append to the stream, create and read it and the three buckets, put into the buckets,
// watch an encounter through ordered consumers on the stream, and list a principal's
// encounters through ordered consumers on the index bucket.
func EncounterPermissions() *server.Permissions {
	pub := []string{
		natsSubjects,
		"$JS.API.INFO", // account limits, read when a KV bucket is created
		"$KV." + natsSeedsKV + ".>",
		"$KV." + natsSnapshotsKV + ".>",
		"$KV." + natsIndexKV + ".>",
	}
	for _, s := range []string{natsStream, "KV_" + natsSeedsKV, "KV_" + natsSnapshotsKV, "KV_" + natsIndexKV} {
		pub = append(pub,
			"$JS.API.STREAM.CREATE."+s,
			"$JS.API.STREAM.UPDATE."+s,
			"$JS.API.STREAM.INFO."+s,
			"$JS.API.STREAM.MSG.GET."+s,
			"$JS.API.DIRECT.GET."+s,
			"$JS.API.DIRECT.GET."+s+".>",
		)
	}
	pub = append(pub,
		"$JS.API.CONSUMER.CREATE."+natsStream+".>",
		"$JS.API.CONSUMER.INFO."+natsStream+".*",
		"$JS.API.CONSUMER.MSG.NEXT."+natsStream+".*",
		"$JS.API.CONSUMER.DELETE."+natsStream+".*",
		// ListEncounters reads a principal's memberships, and the idle sweep a tenant's open
		// encounters, one index key each, by ordered consumers on the index bucket's stream.
		"$JS.API.CONSUMER.CREATE.KV_"+natsIndexKV+".>",
		"$JS.API.CONSUMER.INFO.KV_"+natsIndexKV+".*",
		"$JS.API.CONSUMER.MSG.NEXT.KV_"+natsIndexKV+".*",
		"$JS.API.CONSUMER.DELETE.KV_"+natsIndexKV+".*",
	)
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: pub},
		Subscribe: &server.SubjectPermission{Allow: []string{EncounterInboxPrefix + ".>"}},
	}
}

// AuditorPermissions is what the log tools need and nothing more: read the event stream
// (stream info, direct gets, consumers and their acks), on the default inbox.
func AuditorPermissions() *server.Permissions {
	return &server.Permissions{
		Publish: &server.SubjectPermission{
			Allow: []string{
				"$JS.API.STREAM.INFO." + natsStream,
				"$JS.API.STREAM.MSG.GET." + natsStream,
				"$JS.API.DIRECT.GET." + natsStream,
				"$JS.API.DIRECT.GET." + natsStream + ".>",
				"$JS.API.CONSUMER.CREATE." + natsStream + ".>",
				"$JS.API.CONSUMER.DURABLE.CREATE." + natsStream + ".*",
				"$JS.API.CONSUMER.INFO." + natsStream + ".*",
				"$JS.API.CONSUMER.MSG.NEXT." + natsStream + ".*",
				"$JS.API.CONSUMER.DELETE." + natsStream + ".*",
				"$JS.ACK." + natsStream + ".>",
			},
			Deny: auditorDenied(),
		},
		Subscribe: &server.SubjectPermission{
			Allow: []string{"_INBOX.>"},
			Deny:  []string{"$KV." + natsSeedsKV + ".>", "$KV." + natsSnapshotsKV + ".>", EncounterInboxPrefix + ".>"},
		},
	}
}

// auditorDenied is redundant with the auditor's allow list, and stated so that widening that
// list (to $JS.API.> say) still keeps the buckets out of reach: writing the log, creating or
// changing a stream (which could source a bucket), and every API of the buckets' streams
// (info, direct and message gets, consumers, snapshots, purges) are refused.
func auditorDenied() []string {
	deny := []string{natsSubjects, "$JS.API.STREAM.CREATE.*", "$JS.API.STREAM.UPDATE.*"}
	for _, b := range []string{natsSeedsKV, natsSnapshotsKV} {
		s := "KV_" + b
		deny = append(deny,
			"$KV."+b+".>",
			"$JS.API.*.*."+s, "$JS.API.*.*."+s+".>",
			"$JS.API.*.*.*."+s, "$JS.API.*.*.*."+s+".>",
			"$JS.ACK."+s+".>", "$JS.FC."+s+".>",
		)
	}
	return deny
}
