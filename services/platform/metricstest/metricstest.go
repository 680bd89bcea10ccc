// Package metricstest scrapes a service's /metrics over HTTP, as Prometheus would, for tests
// that assert series and values.
package metricstest

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Families are the metric families of one scrape, by name.
type Families map[string]*dto.MetricFamily

// Scrape reads http://addr/metrics in the Prometheus text format.
func Scrape(t testing.TB, addr string) Families {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("scrape %s: %v", addr, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape %s: %s", addr, resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("scrape %s: %v", addr, err)
	}
	return fams
}

// Names are the names of the series the scrape holds, as a query names them: a histogram's
// name with _bucket, _sum and _count.
func (f Families) Names() []string {
	var names []string
	for name, fam := range f {
		if fam.GetType() == dto.MetricType_HISTOGRAM {
			names = append(names, name+"_bucket", name+"_sum", name+"_count")
			continue
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Lookup is the sum of the values of the series of name whose labels include the given
// pairs (name, value, name, value…), and whether there is any. name may be a histogram's
// name+"_count" or name+"_sum".
func (f Families) Lookup(name string, labels ...string) (float64, bool) {
	field := ""
	fam := f[name]
	if fam == nil {
		for _, suffix := range []string{"_count", "_sum"} {
			if base, ok := strings.CutSuffix(name, suffix); ok && f[base].GetType() == dto.MetricType_HISTOGRAM {
				fam, field = f[base], suffix
			}
		}
	}
	if fam == nil {
		return 0, false
	}
	var sum float64
	found := false
	for _, m := range fam.GetMetric() {
		if !hasLabels(m, labels) {
			continue
		}
		found = true
		switch {
		case m.GetCounter() != nil:
			sum += m.GetCounter().GetValue()
		case m.GetGauge() != nil:
			sum += m.GetGauge().GetValue()
		case m.GetUntyped() != nil:
			sum += m.GetUntyped().GetValue()
		case m.GetHistogram() != nil && field == "_sum":
			sum += m.GetHistogram().GetSampleSum()
		case m.GetHistogram() != nil:
			sum += float64(m.GetHistogram().GetSampleCount())
		}
	}
	return sum, found
}

// Value is Lookup's value; the test fails when there is no such series.
func (f Families) Value(t testing.TB, name string, labels ...string) float64 {
	t.Helper()
	v, ok := f.Lookup(name, labels...)
	if !ok {
		t.Fatalf("no series %s%s in the scrape", name, Selector(labels...))
	}
	return v
}

// Selector writes label pairs as a query would: {a="b",c="d"}.
func Selector(labels ...string) string {
	if len(labels) == 0 {
		return ""
	}
	var parts []string
	for i := 0; i+1 < len(labels); i += 2 {
		parts = append(parts, fmt.Sprintf("%s=%q", labels[i], labels[i+1]))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func hasLabels(m *dto.Metric, labels []string) bool {
	for i := 0; i+1 < len(labels); i += 2 {
		ok := false
		for _, lp := range m.GetLabel() {
			if lp.GetName() == labels[i] && lp.GetValue() == labels[i+1] {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
