package load

import "slices"

// Range is the min / median / max of one figure over the rounds (the median of an even
// count: the mean of the middle two).
type Range[T ~float64 | ~int64] struct {
	Min    T `json:"min"`
	Median T `json:"median"`
	Max    T `json:"max"`
}

// rangeOf is the Range of vs (nil when there are none).
func rangeOf[T ~float64 | ~int64](vs []T) *Range[T] {
	if len(vs) == 0 {
		return nil
	}
	s := slices.Sorted(slices.Values(vs))
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return &Range[T]{Min: s[0], Median: med, Max: s[n-1]}
}

// Spread is each figure's Range over the rounds; an anchor's figures and the CPU are over
// the rounds that measured them (none: absent).
type Spread struct {
	CommandsPerSecond  *Range[float64]  `json:"commands_per_second"`
	HealthPerSecond    *Range[float64]  `json:"health_check_per_second,omitempty"`
	JetStreamPerSecond *Range[float64]  `json:"jetstream_publish_per_second,omitempty"`
	SkeletonPerSecond  *Range[float64]  `json:"skeleton_submit_per_second,omitempty"`
	RatioHealth        *Range[float64]  `json:"ratio_to_health_check,omitempty"`
	RatioJetStream     *Range[float64]  `json:"ratio_to_jetstream_publish,omitempty"`
	RatioSkeleton      *Range[float64]  `json:"ratio_to_skeleton_submit,omitempty"`
	P50                *Range[Duration] `json:"p50"`
	P95                *Range[Duration] `json:"p95"`
	P99                *Range[Duration] `json:"p99"`
	Max                *Range[Duration] `json:"max"`
	CPUPerCommand      *Range[Duration] `json:"cpu_per_command,omitempty"`
	// CPUPerSkeletonSubmit: Round's.
	CPUPerSkeletonSubmit *Range[Duration] `json:"cpu_per_skeleton_submit,omitempty"`
}

// spreadOf gathers each figure of the rounds.
func spreadOf(rounds []*Round) Spread {
	var cps, hps, jps, sps, rh, rj, rs []float64
	var p50, p95, p99, mx, cpu, skcpu []Duration
	for _, r := range rounds {
		cps = append(cps, r.Commands.PerSecond)
		p50, p95, p99, mx = append(p50, r.Commands.P50), append(p95, r.Commands.P95), append(p99, r.Commands.P99), append(mx, r.Commands.Max)
		if r.Health != nil {
			hps, rh = append(hps, r.Health.PerSecond), append(rh, r.RatioHealth)
		}
		if r.JetStream != nil {
			jps, rj = append(jps, r.JetStream.PerSecond), append(rj, r.RatioJetStream)
		}
		if r.Skeleton != nil {
			sps, rs = append(sps, r.Skeleton.PerSecond), append(rs, r.RatioSkeleton)
		}
		if r.CPUPerCommand > 0 {
			cpu = append(cpu, r.CPUPerCommand)
		}
		if r.CPUPerSkeletonSubmit > 0 {
			skcpu = append(skcpu, r.CPUPerSkeletonSubmit)
		}
	}
	return Spread{
		CommandsPerSecond: rangeOf(cps), HealthPerSecond: rangeOf(hps), JetStreamPerSecond: rangeOf(jps), SkeletonPerSecond: rangeOf(sps),
		RatioHealth: rangeOf(rh), RatioJetStream: rangeOf(rj), RatioSkeleton: rangeOf(rs),
		P50: rangeOf(p50), P95: rangeOf(p95), P99: rangeOf(p99), Max: rangeOf(mx), CPUPerCommand: rangeOf(cpu),
		CPUPerSkeletonSubmit: rangeOf(skcpu),
	}
}
