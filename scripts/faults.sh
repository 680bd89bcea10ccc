#!/usr/bin/env bash
# The hosted topology on one machine, with faults (issue 14): 3 clustered nats-server processes
# (stream R3), 2 resolvers and 2 encounter services, built from this repository, run as
# processes on free 127.0.0.1 ports; fray load's fights through both encounter services while a
# NATS node is killed -9 and restarted (the stream's leader, then a follower), each encounter
# service is killed -9 and restarted 10 times, and the stream's leader is frozen (SIGSTOP) for
# 10 s. Then, from the log: nothing acknowledged lost, nothing recorded twice, no history
# forked, every encounter intact under `fray audit verify`; availability and recovery per fault.
# About 5 minutes. FRAY_FAULTS=short runs the test command's short plan instead; the report is
# also written to $FRAY_FAULTS_REPORT (default faults-report.txt in a temporary folder).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export FRAY_FAULTS=${FRAY_FAULTS:-full}
export FRAY_FAULTS_REPORT=${FRAY_FAULTS_REPORT:-$(mktemp -d)/faults-report.txt}
go test -count=1 -v -run '^TestFaults$' -timeout 30m ./cli/internal/faults
echo "report: $FRAY_FAULTS_REPORT"
