#!/usr/bin/env bash
# The hosted topology on one machine, with faults (cli/test/faults): 3 clustered nats-server
# processes (stream R3), 2 resolvers under one DNS name (the run's own name server, an
# address each, TLS) and 2 encounter services, built from this repository, run as processes;
# fray load's fights through both encounter services while a NATS node is killed -9 and
# restarted (the stream's leader, then a follower), each encounter service is killed -9 and
# restarted 10 times, the stream's leader is frozen (SIGSTOP) for 10 s, a NATS node is cut
# off for 15 s from its peers only and from everyone (an encounter service's node, then the
# stream's leader; each node in its own network namespace, so root only: without it the
# partitions are skipped, loudly), the encounter services are restarted one after the other
# (SIGTERM) twice, a third resolver joins the name, and each resolver is killed -9. Then,
# from the log: nothing acknowledged lost, nothing recorded twice, no history forked, every
# encounter intact under `fray audit verify`; availability, outage and recovery per fault;
# calls answered NotFound for an encounter that exists, and refusals decided on a stale
# state, per window; how soon a service whose node is cut off says NOT_SERVING, and how soon
# the new resolver gets its share of the calls — each a failure past the product's requirements
# (none; 5 s; a third of the calls within 30 s). About 10 minutes.
# FRAY_FAULTS=short runs the test command's short plan instead; the report is also written to
# $FRAY_FAULTS_REPORT (default faults-report.txt in a temporary folder).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export FRAY_FAULTS=${FRAY_FAULTS:-full}
export FRAY_FAULTS_REPORT=${FRAY_FAULTS_REPORT:-$(mktemp -d)/faults-report.txt}
go test -count=1 -v -run '^TestFaults$' -timeout 30m ./cli/test/faults
echo "report: $FRAY_FAULTS_REPORT"
