package deploy

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fray-rpg/fray/services/encounter"
	"github.com/stretchr/testify/require"
)

// dashboard is what the test reads of a Grafana dashboard.
type dashboard struct {
	UID        string `json:"uid"`
	Title      string `json:"title"`
	Templating struct {
		List []struct {
			Name  string `json:"name"`
			Type  string `json:"type"`
			Query any    `json:"query"`
		} `json:"list"`
	} `json:"templating"`
	Panels []struct {
		ID         int    `json:"id"`
		Type       string `json:"type"`
		Title      string `json:"title"`
		Datasource *struct {
			UID string `json:"uid"`
		} `json:"datasource"`
		GridPos struct{ H, W, X, Y int } `json:"gridPos"`
		Targets []struct {
			RefID string `json:"refId"`
			Expr  string `json:"expr"`
		} `json:"targets"`
	} `json:"panels"`
}

// processMetric are the series every Go process exports of itself, the exporter sidecar too.
var processMetric = regexp.MustCompile(`^(process|go)_`)

// PromQL read just enough to find the series an expression names.
var (
	promString    = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)
	promMatchers  = regexp.MustCompile(`\{[^{}]*\}`)
	promRange     = regexp.MustCompile(`\[[^\]]*\]`)
	promGrouping  = regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)`)
	promVariable  = regexp.MustCompile(`\$\{?[A-Za-z_][A-Za-z0-9_]*\}?`)
	promDuration  = regexp.MustCompile(`\b\d+(?:ms|[smhdwy])\b`)
	promNumber    = regexp.MustCompile(`\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b`)
	promName      = regexp.MustCompile(`[A-Za-z_:][A-Za-z0-9_:]*(\s*\()?`)
	promKeywords  = []string{"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset", "inf", "nan", "le"}
	labelValuesOf = regexp.MustCompile(`^label_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*,\s*[A-Za-z_][A-Za-z0-9_]*\s*\)$`)
)

// seriesOf are the metric names a PromQL expression selects: its identifiers that are not a
// function or an aggregation (followed by "("), a keyword, a label (in matchers or a
// grouping) or a dashboard variable.
func seriesOf(expr string) []string {
	e := promString.ReplaceAllString(expr, `""`)
	e = promMatchers.ReplaceAllString(e, " ")
	e = promRange.ReplaceAllString(e, " ")
	e = promGrouping.ReplaceAllString(e, " ")
	e = promVariable.ReplaceAllString(e, " ")
	e = promDuration.ReplaceAllString(e, " ")
	e = promNumber.ReplaceAllString(e, " ")
	var names []string
	for _, m := range promName.FindAllStringSubmatch(e, -1) {
		if m[1] != "" || slices.Contains(promKeywords, strings.ToLower(m[0])) {
			continue
		}
		if !slices.Contains(names, m[0]) {
			names = append(names, m[0])
		}
	}
	return names
}

func TestSeriesOfExpressions(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want []string
	}{
		{`rate(fray_encounter_commands_total[5m])`, []string{"fray_encounter_commands_total"}},
		{`histogram_quantile(0.99, sum by (le, grpc_method) (rate(grpc_server_handling_seconds_bucket{namespace=~"$namespace", grpc_type="unary"}[$__rate_interval])))`, []string{"grpc_server_handling_seconds_bucket"}},
		{`sum(rate(a_total{x="by (y)"}[1m])) / (sum(rate(b_total[1m])) + sum without (pod) (c_total offset 5m))`, []string{"a_total", "b_total", "c_total"}},
		{`sum by (limit) (increase(fray_limit_refusals_total{limit=~"rate_.*"}[5m])) > bool 2e3`, []string{"fray_limit_refusals_total"}},
		{`up`, []string{"up"}},
	} {
		require.Equal(t, tc.want, seriesOf(tc.expr), tc.expr)
	}
}

// TestGrafanaDashboard: deploy/grafana/fray.json is a dashboard whose every query names only
// series the services export (encounter.MetricNames, kept true by a test scraping a running
// service) or NATS's exporter does (scraped from the real exporter run as the sidecar, against
// a cluster holding fray's stream, buckets and a consumer), through the datasource variable;
// panels have unique ids and targets, and none overlaps another. The NATS rows show
// nats-server's own figures and JetStream's, and the services' process rows leave out the NATS
// pods, whose scrape is the exporter's own process.
func TestGrafanaDashboard(t *testing.T) {
	data, err := os.ReadFile("grafana/fray.json")
	require.NoError(t, err)
	var d dashboard
	require.NoError(t, json.Unmarshal(data, &d))
	require.Equal(t, "fray", d.UID)
	exported := encounter.MetricNames()
	for n := range natsExported(t) {
		if strings.HasPrefix(n, "nats_") {
			exported = append(exported, n)
		}
	}

	vars := map[string]bool{}
	for _, v := range d.Templating.List {
		vars[v.Name] = true
		if v.Type != "query" {
			continue
		}
		q, _ := v.Query.(map[string]any)
		m := labelValuesOf.FindStringSubmatch(strings.TrimSpace(q["query"].(string)))
		require.NotNilf(t, m, "variable %s: label_values(metric, label) expected", v.Name)
		require.Containsf(t, exported, m[1], "variable %s names a series no service exports", v.Name)
	}
	require.True(t, vars["datasource"] && vars["namespace"], "variables datasource and namespace")

	ids := map[int]bool{}
	type cell struct{ x, y int }
	taken := map[cell]string{}
	used := map[string]bool{}
	for _, p := range d.Panels {
		require.Falsef(t, ids[p.ID], "panel id %d twice", p.ID)
		ids[p.ID] = true
		for x := p.GridPos.X; x < p.GridPos.X+p.GridPos.W; x++ {
			for y := p.GridPos.Y; y < p.GridPos.Y+p.GridPos.H; y++ {
				require.Emptyf(t, taken[cell{x, y}], "%q overlaps %q", p.Title, taken[cell{x, y}])
				taken[cell{x, y}] = p.Title
			}
		}
		require.LessOrEqual(t, p.GridPos.X+p.GridPos.W, 24, p.Title)
		if p.Type == "row" {
			continue
		}
		require.NotNil(t, p.Datasource, p.Title)
		require.Equal(t, "${datasource}", p.Datasource.UID, p.Title)
		require.NotEmpty(t, p.Targets, p.Title)
		refs := map[string]bool{}
		for _, tg := range p.Targets {
			require.Falsef(t, refs[tg.RefID], "%s: refId %s twice", p.Title, tg.RefID)
			refs[tg.RefID] = true
			names := seriesOf(tg.Expr)
			require.NotEmptyf(t, names, "%s: %s names no series", p.Title, tg.Expr)
			for _, n := range names {
				require.Containsf(t, exported, n, "%s: %s names %s, which no service exports (encounter.MetricNames)", p.Title, tg.Expr, n)
				used[n] = true
			}
			require.Containsf(t, tg.Expr, `namespace=~"$namespace"`, "%s: every selector filters by the namespace variable", p.Title)
			for _, n := range names {
				if processMetric.MatchString(n) {
					require.Containsf(t, tg.Expr, `pod!~"nats-[0-9]+"`, "%s: %s of a NATS pod is the exporter's process, not nats-server's", p.Title, n)
				}
			}
		}
	}
	// NATS and JetStream: nats-server's memory, CPU and connections, its health and peers,
	// the stream's and buckets' bytes and messages, consumers' pending, the meta leader, the
	// JetStream API's errors.
	for _, n := range []string{"nats_varz_mem", "nats_varz_cpu", "nats_varz_connections", "nats_healthz_status_value", "nats_varz_remotes",
		"nats_stream_total_bytes", "nats_stream_total_messages", "nats_consumer_num_pending", "nats_varz_jetstream_meta_leader", "nats_varz_jetstream_stats_api_errors"} {
		require.Truef(t, used[n], "no panel shows %s", n)
	}
	// The dashboard shows every family of fray's own (a histogram through any of its series).
	for _, n := range exported {
		if !strings.HasPrefix(n, "fray_") {
			continue
		}
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(n, "_bucket"), "_sum"), "_count")
		shown := false
		for u := range used {
			if strings.HasPrefix(u, base) {
				shown = true
			}
		}
		require.Truef(t, shown, "no panel shows %s", base)
	}
}
