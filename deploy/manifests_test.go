package deploy

import (
	"bufio"
	"fmt"
	"maps"
	"net"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fray-rpg/fray/services/platform/server"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The repository's root, from deploy/ where the tests run.
const repoRoot = ".."

// What each kustomization deploys.
type overlay struct {
	dir            string
	natsNodes      int32            // NATS StatefulSet replicas
	streamReplicas int              // FRAY_REPLICAS: the stream's and buckets' replicas
	replicas       map[string]int32 // Deployments' replicas
	prod           bool             // resources, anti-affinity, PDBs, HPA
}

var overlays = []overlay{
	{dir: "k8s/base", natsNodes: 3, streamReplicas: 3, replicas: map[string]int32{"encounter": 1, "resolver": 1}},
	{dir: "k8s/overlays/dev", natsNodes: 1, streamReplicas: 1, replicas: map[string]int32{"encounter": 1, "resolver": 1}},
	// The resolver's count is the HorizontalPodAutoscaler's in prod (TestResolverAutoscaler).
	{dir: "k8s/overlays/prod", natsNodes: 3, streamReplicas: 3, replicas: map[string]int32{"encounter": 2}, prod: true},
}

var (
	renderMu sync.Mutex
	rendered = map[string]*Rendered{}
)

// render renders dir once per test run.
func render(t *testing.T, dir string) *Rendered {
	t.Helper()
	renderMu.Lock()
	defer renderMu.Unlock()
	if r, ok := rendered[dir]; ok {
		return r
	}
	r, err := Render(dir)
	require.NoError(t, err)
	rendered[dir] = r
	return r
}

// eachOverlay runs check on every kustomization's rendering.
func eachOverlay(t *testing.T, check func(t *testing.T, o overlay, r *Rendered)) {
	for _, o := range overlays {
		t.Run(o.dir, func(t *testing.T) { check(t, o, render(t, o.dir)) })
	}
}

// The gRPC services the services' readiness probes name, read from the proto files.
var healthServices = map[string]string{
	"encounter": protoService("proto/fray/encounter/v1/encounter_service.proto"),
	"resolver":  protoService("proto/fray/rules/v1/rules_service.proto"),
}

// protoService is "<package>.<service>" of the one service a proto file declares.
func protoService(file string) string {
	b, err := os.ReadFile(filepath.Join(repoRoot, file))
	if err != nil {
		return "unreadable " + file + ": " + err.Error()
	}
	pkg := regexp.MustCompile(`(?m)^package\s+([\w.]+);`).FindSubmatch(b)
	svc := regexp.MustCompile(`(?m)^service\s+(\w+)\s*\{`).FindSubmatch(b)
	if pkg == nil || svc == nil {
		return "no package or service in " + file
	}
	return string(pkg[1]) + "." + string(svc[1])
}

func TestOverlaysRenderStrictly(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		require.Len(t, r.Namespaces, 1)
		ns := r.Namespaces[0]
		require.Equal(t, "restricted", ns.Labels["pod-security.kubernetes.io/enforce"], "the namespace enforces the restricted Pod Security Standard")
		seen := map[string]bool{}
		for _, n := range r.Names {
			require.Falsef(t, seen[n], "%s twice", n)
			seen[n] = true
		}
		metas := []metav1.ObjectMeta{}
		for _, x := range r.ServiceAccounts {
			metas = append(metas, x.ObjectMeta)
		}
		for _, x := range r.Services {
			metas = append(metas, x.ObjectMeta)
		}
		for _, x := range r.ConfigMaps {
			metas = append(metas, x.ObjectMeta)
		}
		for _, x := range r.Secrets {
			metas = append(metas, x.ObjectMeta)
		}
		for _, x := range r.Deployments {
			metas = append(metas, x.ObjectMeta)
		}
		for _, x := range r.StatefulSets {
			metas = append(metas, x.ObjectMeta)
		}
		for _, x := range r.NetworkPolicies {
			metas = append(metas, x.ObjectMeta)
		}
		for _, x := range r.PDBs {
			metas = append(metas, x.ObjectMeta)
		}
		for _, x := range r.HPAs {
			metas = append(metas, x.ObjectMeta)
		}
		for _, m := range metas {
			require.Equalf(t, ns.Name, m.Namespace, "%s is not in the overlay's namespace", m.Name)
			require.Equal(t, "fray", m.Labels["app.kubernetes.io/part-of"], m.Name)
		}
		for _, pc := range r.PriorityClasses {
			require.Emptyf(t, pc.Namespace, "PriorityClass %s is cluster-wide", pc.Name)
			require.Equal(t, "fray", pc.Labels["app.kubernetes.io/part-of"], pc.Name)
		}
		names := []string{}
		for _, w := range r.Workloads() {
			names = append(names, w.Kind+"/"+w.Name)
		}
		require.Equal(t, []string{"Deployment/encounter", "Deployment/gateway", "StatefulSet/nats", "Deployment/resolver"}, names)
	})
}

// effective is a container's security settings, its own over its pod's.
type effective struct {
	nonRoot, readOnly, noEscalation, privileged bool
	user                                        *int64
	seccomp                                     corev1.SeccompProfileType
	drop, add                                   []corev1.Capability
}

func securityOf(pod *corev1.PodSpec, c *corev1.Container) effective {
	var e effective
	if p := pod.SecurityContext; p != nil {
		e.nonRoot = p.RunAsNonRoot != nil && *p.RunAsNonRoot
		e.user = p.RunAsUser
		if p.SeccompProfile != nil {
			e.seccomp = p.SeccompProfile.Type
		}
	}
	if s := c.SecurityContext; s != nil {
		if s.RunAsNonRoot != nil {
			e.nonRoot = *s.RunAsNonRoot
		}
		if s.RunAsUser != nil {
			e.user = s.RunAsUser
		}
		if s.SeccompProfile != nil {
			e.seccomp = s.SeccompProfile.Type
		}
		e.readOnly = s.ReadOnlyRootFilesystem != nil && *s.ReadOnlyRootFilesystem
		e.noEscalation = s.AllowPrivilegeEscalation != nil && !*s.AllowPrivilegeEscalation
		e.privileged = s.Privileged != nil && *s.Privileged
		if s.Capabilities != nil {
			e.drop, e.add = s.Capabilities.Drop, s.Capabilities.Add
		}
	}
	return e
}

func allContainers(pod *corev1.PodSpec) []*corev1.Container {
	var cs []*corev1.Container
	for i := range pod.InitContainers {
		cs = append(cs, &pod.InitContainers[i])
	}
	for i := range pod.Containers {
		cs = append(cs, &pod.Containers[i])
	}
	return cs
}

func TestContainersAreHardened(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		for _, w := range r.Workloads() {
			pod := &w.Template.Spec
			require.Falsef(t, pod.HostNetwork || pod.HostPID || pod.HostIPC, "%s shares the node's namespaces", w.Name)
			require.NotNilf(t, pod.AutomountServiceAccountToken, "%s: automountServiceAccountToken", w.Name)
			require.Falsef(t, *pod.AutomountServiceAccountToken, "%s mounts a Kubernetes API token it has no use for", w.Name)
			require.NotEmptyf(t, pod.ServiceAccountName, "%s runs as the namespace's default ServiceAccount", w.Name)
			i := slices.IndexFunc(r.ServiceAccounts, func(sa *corev1.ServiceAccount) bool { return sa.Name == pod.ServiceAccountName })
			require.GreaterOrEqualf(t, i, 0, "%s: no ServiceAccount %s", w.Name, pod.ServiceAccountName)
			sa := r.ServiceAccounts[i]
			require.Truef(t, sa.AutomountServiceAccountToken != nil && !*sa.AutomountServiceAccountToken, "ServiceAccount %s: automountServiceAccountToken: false", sa.Name)
			for _, v := range pod.Volumes {
				ok := v.ConfigMap != nil || v.Secret != nil || v.Projected != nil || v.EmptyDir != nil || v.PersistentVolumeClaim != nil
				require.Truef(t, ok, "%s: volume %s is of a kind the restricted standard refuses or this test does not know", w.Name, v.Name)
			}
			for _, c := range allContainers(pod) {
				e := securityOf(pod, c)
				where := w.Name + "/" + c.Name
				require.Truef(t, e.nonRoot, "%s: runAsNonRoot", where)
				require.Truef(t, e.user != nil && *e.user > 0, "%s: a non-zero runAsUser (the kubelet cannot check a user name)", where)
				require.Truef(t, e.readOnly, "%s: readOnlyRootFilesystem", where)
				require.Truef(t, e.noEscalation, "%s: allowPrivilegeEscalation: false", where)
				require.Falsef(t, e.privileged, "%s: privileged", where)
				require.Equalf(t, corev1.SeccompProfileTypeRuntimeDefault, e.seccomp, "%s: seccompProfile RuntimeDefault", where)
				require.Containsf(t, e.drop, corev1.Capability("ALL"), "%s: capabilities drop ALL", where)
				require.Emptyf(t, e.add, "%s adds capabilities", where)
			}
		}
	})
}

// portOf resolves a probe's or Service's port (a number, or a name of the container's ports)
// to a container port.
func portOf(ports []corev1.ContainerPort, p intstr.IntOrString) (corev1.ContainerPort, bool) {
	for _, cp := range ports {
		if (p.Type == intstr.String && cp.Name == p.StrVal) || (p.Type == intstr.Int && cp.ContainerPort == p.IntVal) {
			return cp, true
		}
	}
	return corev1.ContainerPort{}, false
}

func probePort(p *corev1.Probe) intstr.IntOrString {
	switch {
	case p.HTTPGet != nil:
		return p.HTTPGet.Port
	case p.TCPSocket != nil:
		return p.TCPSocket.Port
	case p.GRPC != nil:
		return intstr.FromInt32(p.GRPC.Port)
	}
	return intstr.FromString("an exec probe")
}

func env(c *corev1.Container, name string) (string, bool) {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value, true
		}
	}
	return "", false
}

func container(w Workload, name string) *corev1.Container {
	for i := range w.Template.Spec.Containers {
		if w.Template.Spec.Containers[i].Name == name {
			return &w.Template.Spec.Containers[i]
		}
	}
	return nil
}

func workload(t *testing.T, r *Rendered, name string) Workload {
	t.Helper()
	for _, w := range r.Workloads() {
		if w.Name == name {
			return w
		}
	}
	t.Fatalf("no workload %s", name)
	return Workload{}
}

func TestEveryContainerHasProbes(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		for _, w := range r.Workloads() {
			for _, c := range w.Template.Spec.Containers {
				where := w.Name + "/" + c.Name
				if w.Name == "nats" && c.Name == "metrics" {
					// A pod is ready when all its containers are: the exporter (listening
					// some 30 s after nats-server) must never decide whether NATS takes
					// clients.
					require.Nilf(t, c.ReadinessProbe, "%s: no readinessProbe", where)
					require.Nilf(t, c.StartupProbe, "%s: no startupProbe", where)
				} else {
					require.NotNilf(t, c.ReadinessProbe, "%s: readinessProbe", where)
				}
				require.NotNilf(t, c.LivenessProbe, "%s: livenessProbe", where)
				for _, p := range []*corev1.Probe{c.ReadinessProbe, c.LivenessProbe, c.StartupProbe} {
					if p == nil {
						continue
					}
					require.Nilf(t, p.Exec, "%s: an exec probe needs a program in the image", where)
					port := probePort(p)
					_, ok := portOf(c.Ports, port)
					require.Truef(t, ok, "%s probes port %s, which the container does not declare", where, port.String())
				}
			}
		}
		// The services: ready when their gRPC health service says so, asked by name, on the
		// plaintext health port (the kubelet's gRPC probe speaks no TLS; the gRPC port does).
		for name, svc := range healthServices {
			w := workload(t, r, name)
			c := container(w, name)
			require.NotNil(t, c)
			p := c.ReadinessProbe.GRPC
			require.NotNilf(t, p, "%s: readiness is a gRPC probe", name)
			require.NotNilf(t, p.Service, "%s: the readiness probe names its service", name)
			require.Equal(t, svc, *p.Service)
			hp, _ := portOf(c.Ports, intstr.FromInt32(p.Port))
			require.Equal(t, "health", hp.Name)
			gp, ok := portOf(c.Ports, intstr.FromString("grpc"))
			require.True(t, ok)
			require.NotEqual(t, gp.ContainerPort, hp.ContainerPort, "the gRPC port serves TLS")
			listen, _ := env(c, "FRAY_HEALTH_LISTEN")
			require.Equal(t, fmt.Sprintf(":%d", hp.ContainerPort), listen)
			// Alive while it answers a gRPC health call, whatever its dependencies (a TCP
			// connect proves only that the kernel accepts).
			lp := c.LivenessProbe.GRPC
			require.NotNilf(t, lp, "%s: liveness is a gRPC health call", name)
			require.Equal(t, p.Port, lp.Port)
			require.NotNil(t, lp.Service)
			require.Equal(t, server.LivenessService, *lp.Service, "%s: liveness asks the service that follows no dependency", name)
		}
		// NATS: JetStream health on the monitoring port.
		nats := container(workload(t, r, "nats"), "nats")
		require.NotNil(t, nats)
		require.Equal(t, "/healthz?js-enabled-only=true", nats.LivenessProbe.HTTPGet.Path)
		// Ready while JetStream is whole on the node (a meta leader, its streams current): a
		// node cut off from its peers leaves the Service nats.
		require.Equal(t, "/healthz", nats.ReadinessProbe.HTTPGet.Path)
		require.NotNil(t, nats.StartupProbe, "NATS recovers its store before its liveness is asked")
		for _, p := range []*corev1.Probe{nats.LivenessProbe, nats.ReadinessProbe, nats.StartupProbe} {
			require.Equal(t, intstr.FromString("monitor"), p.HTTPGet.Port)
		}
	})
}

func TestStreamReplicasFollowTheNATSCluster(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		nats := workload(t, r, "nats")
		require.Equal(t, o.natsNodes, nats.Replicas)
		enc := container(workload(t, r, "encounter"), "encounter")
		v, ok := env(enc, "FRAY_REPLICAS")
		require.True(t, ok, "the encounter service sets FRAY_REPLICAS")
		n, err := strconv.Atoi(v)
		require.NoError(t, err)
		require.Equal(t, o.streamReplicas, n)
		require.LessOrEqual(t, int32(n), o.natsNodes, "more stream replicas than NATS nodes")
		for name, want := range o.replicas {
			require.Equalf(t, want, workload(t, r, name).Replicas, "%s replicas", name)
		}
	})
}

// mountedAt tells whether path is inside the mount of volume in c.
func mountedAt(c *corev1.Container, path, volume string) bool {
	for _, m := range c.VolumeMounts {
		if m.Name == volume && strings.HasPrefix(path, strings.TrimSuffix(m.MountPath, "/")+"/") {
			return true
		}
	}
	return false
}

// The encounter service's storage limits fit in the JetStream store of a NATS node (each
// node holds a whole replica), and the store in 75% of the node's volume.
func TestStorageLimitsFitTheNATSVolume(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		sts := r.StatefulSets[0]
		var volume *resource.Quantity
		for _, pvc := range sts.Spec.VolumeClaimTemplates {
			if pvc.Name == "data" {
				q := pvc.Spec.Resources.Requests[corev1.ResourceStorage]
				volume = &q
			}
		}
		require.NotNil(t, volume, "the NATS nodes keep JetStream on a volume claim")
		opts, _ := natsOptions(t, r)
		require.Positive(t, opts.JetStreamMaxStore, "max_file_store is set: by default NATS takes 75%% of the space free at each start")
		require.LessOrEqual(t, opts.JetStreamMaxStore, volume.Value()*3/4, "the JetStream store within 75%% of the %s volume", volume.String())
		enc := container(workload(t, r, "encounter"), "encounter")
		var total int64
		for _, name := range []string{"FRAY_STREAM_MAX_BYTES", "FRAY_SEEDS_MAX_BYTES", "FRAY_SNAPSHOTS_MAX_BYTES", "FRAY_INDEX_MAX_BYTES"} {
			v, ok := env(enc, name)
			require.Truef(t, ok, "the encounter service sets %s (else its default applies, unchecked here)", name)
			n, err := strconv.ParseInt(v, 10, 64)
			require.NoError(t, err, name)
			require.Positive(t, n, name)
			total += n
		}
		require.LessOrEqualf(t, total, opts.JetStreamMaxStore, "storage limits %d bytes, JetStream store %d", total, opts.JetStreamMaxStore)
	})
}

// podsSelected are the workloads whose pods sel selects.
func podsSelected(t *testing.T, r *Rendered, sel *metav1.LabelSelector) []string {
	t.Helper()
	s, err := metav1.LabelSelectorAsSelector(sel)
	require.NoError(t, err)
	var out []string
	for _, w := range r.Workloads() {
		if !s.Empty() && s.Matches(labels.Set(w.Template.Labels)) {
			out = append(out, w.Name)
		}
	}
	return out
}

func TestDisruptionBudgets(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		if !o.prod {
			require.Empty(t, r.PDBs, "a budget over one pod would block every drain")
			return
		}
		covered := map[string]bool{}
		for _, pdb := range r.PDBs {
			sel := podsSelected(t, r, pdb.Spec.Selector)
			require.Lenf(t, sel, 1, "PDB %s selects the pods of exactly one workload", pdb.Name)
			w := workload(t, r, sel[0])
			covered[w.Name] = true
			if min, ok := autoscaledMin(r, w.Name); ok {
				w.Replicas = min // at least, the autoscaler's count
			}
			var keep int32
			switch {
			case pdb.Spec.MinAvailable != nil:
				require.Equal(t, intstr.Int, pdb.Spec.MinAvailable.Type)
				keep = pdb.Spec.MinAvailable.IntVal
			case pdb.Spec.MaxUnavailable != nil:
				require.Equal(t, intstr.Int, pdb.Spec.MaxUnavailable.Type)
				keep = w.Replicas - pdb.Spec.MaxUnavailable.IntVal
			}
			require.GreaterOrEqualf(t, keep, int32(1), "PDB %s", pdb.Name)
			require.Lessf(t, keep, w.Replicas, "PDB %s keeps every pod: no drain could proceed", pdb.Name)
			if w.Name == "nats" {
				require.GreaterOrEqual(t, keep, w.Replicas/2+1, "a drain keeps the JetStream quorum")
			}
		}
		require.Equal(t, map[string]bool{"encounter": true, "gateway": true, "nats": true, "resolver": true}, covered)
	})
}

// autoscaledMin is the minReplicas of the HorizontalPodAutoscaler of Deployment name, if one
// scales it.
func autoscaledMin(r *Rendered, name string) (int32, bool) {
	for _, h := range r.HPAs {
		if h.Spec.ScaleTargetRef.Kind == "Deployment" && h.Spec.ScaleTargetRef.Name == name && h.Spec.MinReplicas != nil {
			return *h.Spec.MinReplicas, true
		}
	}
	return 0, false
}

func TestResolverAutoscaler(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		if !o.prod {
			require.Empty(t, r.HPAs)
			return
		}
		require.Len(t, r.HPAs, 1)
		h := r.HPAs[0]
		ref := h.Spec.ScaleTargetRef
		require.Equal(t, "apps/v1", ref.APIVersion)
		require.Equal(t, "Deployment", ref.Kind)
		require.Equal(t, "resolver", ref.Name)
		w := workload(t, r, "resolver")
		require.Equal(t, "Deployment", w.Kind)
		require.NotNil(t, h.Spec.MinReplicas)
		require.GreaterOrEqual(t, *h.Spec.MinReplicas, int32(2))
		require.Greater(t, h.Spec.MaxReplicas, *h.Spec.MinReplicas)
		require.NotEmpty(t, h.Spec.Metrics)
		for _, m := range h.Spec.Metrics {
			require.NotNil(t, m.Resource)
			for _, c := range w.Template.Spec.Containers {
				_, ok := c.Resources.Requests[m.Resource.Name]
				require.Truef(t, ok, "the HPA scales on %s utilization: %s requests some", m.Resource.Name, c.Name)
			}
		}
		// Every Deployment an HPA scales leaves its count to it: a replicas field would be
		// applied again by each `kubectl apply -k`, undoing the autoscaler.
		for _, h := range r.HPAs {
			i := slices.IndexFunc(r.Deployments, func(d *appsv1.Deployment) bool { return d.Name == h.Spec.ScaleTargetRef.Name })
			require.GreaterOrEqual(t, i, 0, "the HPA %s scales no Deployment of the overlay", h.Name)
			require.Nilf(t, r.Deployments[i].Spec.Replicas, "Deployment %s, scaled by the HPA %s, sets replicas", r.Deployments[i].Name, h.Name)
		}
	})
}

// goMemLimit parses a GOMEMLIMIT value (a number with an optional B, KiB, MiB, GiB or TiB).
func goMemLimit(t *testing.T, v string) int64 {
	m := regexp.MustCompile(`^(\d+)(B|KiB|MiB|GiB|TiB)?$`).FindStringSubmatch(v)
	require.NotNilf(t, m, "GOMEMLIMIT %q", v)
	n, err := strconv.ParseInt(m[1], 10, 64)
	require.NoError(t, err)
	shift := map[string]uint{"": 0, "B": 0, "KiB": 10, "MiB": 20, "GiB": 30, "TiB": 40}[m[2]]
	return n << shift
}

func TestProdResourcesAndSpread(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		if !o.prod {
			for _, w := range r.Workloads() {
				require.Emptyf(t, w.Template.Spec.PriorityClassName, "%s: no priority outside prod", w.Name)
			}
			require.Empty(t, r.PriorityClasses)
			return
		}
		priority := map[string]int32{}
		for _, w := range r.Workloads() {
			for _, c := range w.Template.Spec.Containers {
				where := w.Name + "/" + c.Name
				_, cpu := c.Resources.Requests[corev1.ResourceCPU]
				_, mem := c.Resources.Requests[corev1.ResourceMemory]
				limit, memLimit := c.Resources.Limits[corev1.ResourceMemory]
				require.Truef(t, cpu && mem && memLimit, "%s: CPU and memory requests, a memory limit", where)
				if v, ok := env(&c, "GOMEMLIMIT"); ok {
					require.Lessf(t, goMemLimit(t, v), limit.Value(), "%s: GOMEMLIMIT under the memory limit", where)
				}
			}
			aff := w.Template.Spec.Affinity
			require.NotNilf(t, aff, "%s: anti-affinity", w.Name)
			require.NotNil(t, aff.PodAntiAffinity, w.Name)
			terms := aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution
			if w.Name == "nats" {
				require.Len(t, terms, 1, "NATS nodes never share a machine")
			} else {
				for _, p := range aff.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
					terms = append(terms, p.PodAffinityTerm)
				}
			}
			require.NotEmpty(t, terms, w.Name)
			for _, term := range terms {
				require.Equal(t, "kubernetes.io/hostname", term.TopologyKey)
				require.Equal(t, []string{w.Name}, podsSelected(t, r, term.LabelSelector), "anti-affinity to its own pods")
			}

			// Spread over zones: NATS strictly (one node per zone: the R3 quorum survives a
			// zone), the services where they can, each rollout's pods counted together.
			spread := w.Template.Spec.TopologySpreadConstraints
			require.Lenf(t, spread, 1, "%s: a zone spread", w.Name)
			z := spread[0]
			require.Equal(t, "topology.kubernetes.io/zone", z.TopologyKey, w.Name)
			require.Equal(t, int32(1), z.MaxSkew, w.Name)
			require.Equal(t, []string{w.Name}, podsSelected(t, r, z.LabelSelector), "spread of its own pods")
			if w.Name == "nats" {
				require.Equal(t, corev1.DoNotSchedule, z.WhenUnsatisfiable, "NATS nodes never share a zone while another has none")
			} else {
				require.Equal(t, corev1.ScheduleAnyway, z.WhenUnsatisfiable, w.Name)
				require.Equal(t, []string{"pod-template-hash"}, z.MatchLabelKeys, w.Name)
			}

			// A priority class of the overlay: NATS above the services.
			pc := w.Template.Spec.PriorityClassName
			i := slices.IndexFunc(r.PriorityClasses, func(p *schedulingv1.PriorityClass) bool { return p.Name == pc })
			require.GreaterOrEqualf(t, i, 0, "%s: priorityClassName %q is no PriorityClass of the overlay", w.Name, pc)
			priority[w.Name] = r.PriorityClasses[i].Value
		}
		for _, svc := range []string{"encounter", "resolver", "gateway"} {
			require.Greaterf(t, priority["nats"], priority[svc], "NATS before %s", svc)
			require.Positive(t, priority[svc])
		}
	})
}

// A rollout counts a new pod available only after it has been ready a while.
func TestMinReadySeconds(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		for _, d := range r.Deployments {
			require.GreaterOrEqualf(t, d.Spec.MinReadySeconds, int32(5), "Deployment %s", d.Name)
		}
		for _, s := range r.StatefulSets {
			require.GreaterOrEqualf(t, s.Spec.MinReadySeconds, int32(10), "StatefulSet %s: a node stays ready before the next one rolls", s.Name)
		}
	})
}

// An endpoint of the network: a pod of a workload, or one outside the namespace.
type endpoint struct {
	name     string
	ns       map[string]string // its namespace's labels
	labels   map[string]string
	ports    []corev1.ContainerPort
	internal bool
	// ip, for an endpoint on a node's network (no pod selector reaches it): ipBlock peers.
	ip net.IP
}

func (e endpoint) port(p intstr.IntOrString) (corev1.ContainerPort, bool) { return portOf(e.ports, p) }

// peerMatches tells whether the policy's peer (in namespace ns) selects e.
func peerMatches(t *testing.T, p networkingv1.NetworkPolicyPeer, ns string, e endpoint) bool {
	if p.IPBlock != nil {
		if e.ip == nil {
			return false // a pod's address is not known to the policies' authors
		}
		_, block, err := net.ParseCIDR(p.IPBlock.CIDR)
		require.NoError(t, err)
		for _, ex := range p.IPBlock.Except {
			_, x, err := net.ParseCIDR(ex)
			require.NoError(t, err)
			if x.Contains(e.ip) {
				return false
			}
		}
		return block.Contains(e.ip)
	}
	sel := func(s *metav1.LabelSelector, l map[string]string) bool {
		x, err := metav1.LabelSelectorAsSelector(s)
		require.NoError(t, err)
		return x.Matches(labels.Set(l))
	}
	if p.NamespaceSelector == nil {
		if e.ns["kubernetes.io/metadata.name"] != ns {
			return false
		}
	} else if !sel(p.NamespaceSelector, e.ns) {
		return false
	}
	return p.PodSelector == nil || sel(p.PodSelector, e.labels)
}

// portMatches tells whether a policy's port list admits the container port cp of dst.
func portMatches(ports []networkingv1.NetworkPolicyPort, dst endpoint, cp corev1.ContainerPort) bool {
	if len(ports) == 0 {
		return true
	}
	for _, p := range ports {
		proto := corev1.ProtocolTCP
		if p.Protocol != nil {
			proto = *p.Protocol
		}
		cpProto := cp.Protocol
		if cpProto == "" {
			cpProto = corev1.ProtocolTCP
		}
		if proto != cpProto {
			continue
		}
		if p.Port == nil {
			return true
		}
		if got, ok := dst.port(*p.Port); ok && got.ContainerPort == cp.ContainerPort {
			return true
		}
	}
	return false
}

// allowed evaluates the NetworkPolicies for a connection from src to dst's port cp: the
// destination's policies must admit it in, the source's let it out (a pod no policy of the
// direction selects is open in that direction; endpoints outside the namespace are).
func allowed(t *testing.T, pols []*networkingv1.NetworkPolicy, src, dst endpoint, cp corev1.ContainerPort) bool {
	selects := func(pol *networkingv1.NetworkPolicy, e endpoint, kind networkingv1.PolicyType) bool {
		if !e.internal || !slices.Contains(pol.Spec.PolicyTypes, kind) {
			return false
		}
		s, err := metav1.LabelSelectorAsSelector(&pol.Spec.PodSelector)
		require.NoError(t, err)
		return s.Matches(labels.Set(e.labels))
	}
	in, out := !dst.internal, !src.internal
	inSelected, outSelected := false, false
	for _, pol := range pols {
		if selects(pol, dst, networkingv1.PolicyTypeIngress) {
			inSelected = true
			for _, rule := range pol.Spec.Ingress {
				from := len(rule.From) == 0 || slices.ContainsFunc(rule.From, func(p networkingv1.NetworkPolicyPeer) bool { return peerMatches(t, p, pol.Namespace, src) })
				if from && portMatches(rule.Ports, dst, cp) {
					in = true
				}
			}
		}
		if selects(pol, src, networkingv1.PolicyTypeEgress) {
			outSelected = true
			for _, rule := range pol.Spec.Egress {
				to := len(rule.To) == 0 || slices.ContainsFunc(rule.To, func(p networkingv1.NetworkPolicyPeer) bool { return peerMatches(t, p, pol.Namespace, dst) })
				if to && portMatches(rule.Ports, dst, cp) {
					out = true
				}
			}
		}
	}
	if dst.internal && !inSelected {
		in = true
	}
	if src.internal && !outSelected {
		out = true
	}
	return in && out
}

func TestNetworkPoliciesAllowExactlyTheStatedFlows(t *testing.T) {
	want := []string{
		"client -> encounter:grpc",
		"prometheus -> encounter:grpc", // the gRPC port is open to any client
		"encounter -> nats:client",
		"encounter -> resolver:grpc",
		"nats -> nats:cluster",
		"prometheus -> encounter:metrics",
		"prometheus -> resolver:metrics",
		"prometheus -> nats:metrics",
		"encounter -> kube-dns:dns-udp",
		"encounter -> kube-dns:dns-tcp",
		"encounter -> coredns:dns-udp",
		"encounter -> coredns:dns-tcp",
		"encounter -> node-local-dns:dns-udp",
		"encounter -> node-local-dns:dns-tcp",
		"resolver -> kube-dns:dns-udp",
		"resolver -> kube-dns:dns-tcp",
		"resolver -> coredns:dns-udp",
		"resolver -> coredns:dns-tcp",
		"resolver -> node-local-dns:dns-udp",
		"resolver -> node-local-dns:dns-tcp",
		"nats -> kube-dns:dns-udp",
		"nats -> kube-dns:dns-tcp",
		"nats -> coredns:dns-udp",
		"nats -> coredns:dns-tcp",
		"nats -> node-local-dns:dns-udp",
		"nats -> node-local-dns:dns-tcp",
		// The gateway: browsers in (through the Ingress; its port is open to any client, as
		// the encounter service's gRPC port), the encounter service out.
		"client -> gateway:http",
		"prometheus -> gateway:http",
		"gateway -> encounter:grpc",
		"gateway -> kube-dns:dns-udp",
		"gateway -> kube-dns:dns-tcp",
		"gateway -> coredns:dns-udp",
		"gateway -> coredns:dns-tcp",
		"gateway -> node-local-dns:dns-udp",
		"gateway -> node-local-dns:dns-tcp",
	}
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		ns := r.Namespaces[0].Name
		var pods []endpoint
		for _, w := range r.Workloads() {
			var ports []corev1.ContainerPort
			for _, c := range w.Template.Spec.Containers {
				ports = append(ports, c.Ports...)
			}
			pods = append(pods, endpoint{name: w.Name, ns: map[string]string{"kubernetes.io/metadata.name": ns}, labels: w.Template.Labels, ports: ports, internal: true})
		}
		client := endpoint{name: "client", ns: map[string]string{"kubernetes.io/metadata.name": "ingress"}, labels: map[string]string{"app": "ingress-controller"}}
		prometheus := endpoint{name: "prometheus", ns: map[string]string{"kubernetes.io/metadata.name": "monitoring"}, labels: map[string]string{"app.kubernetes.io/name": "prometheus"}}
		dnsPorts := []corev1.ContainerPort{{Name: "dns-udp", ContainerPort: 53, Protocol: corev1.ProtocolUDP}, {Name: "dns-tcp", ContainerPort: 53, Protocol: corev1.ProtocolTCP}}
		kubeSystem := map[string]string{"kubernetes.io/metadata.name": "kube-system"}
		dns := endpoint{name: "kube-dns", ns: kubeSystem, labels: map[string]string{"k8s-app": "kube-dns"}, ports: dnsPorts}
		// CoreDNS as some distributions label it, and NodeLocal DNSCache (host network:
		// reached at its link-local address, which no pod selector matches).
		coredns := endpoint{name: "coredns", ns: kubeSystem, labels: map[string]string{"app.kubernetes.io/name": "coredns"}, ports: dnsPorts}
		nodeLocal := endpoint{name: "node-local-dns", ns: map[string]string{"kubernetes.io/metadata.name": "host-network"}, ports: dnsPorts, ip: net.ParseIP("169.254.20.10")}
		// A pod of the namespace that is none of fray's, for the default deny.
		stray := endpoint{name: "stray", ns: map[string]string{"kubernetes.io/metadata.name": ns}, labels: map[string]string{"app": "stray"}, internal: true}
		var got []string
		for _, src := range append(slices.Clone(pods), client, prometheus, stray) {
			for _, dst := range append(slices.Clone(pods), dns, coredns, nodeLocal, stray) {
				if !src.internal && !dst.internal {
					continue // not the namespace's business
				}
				for _, cp := range dst.ports {
					if allowed(t, r.NetworkPolicies, src, dst, cp) {
						got = append(got, fmt.Sprintf("%s -> %s:%s", src.name, dst.name, cp.Name))
					}
				}
			}
		}
		// Another pod of the namespace (it has no ports: nothing reaches it) reaches DNS only.
		require.ElementsMatch(t, append(slices.Clone(want), "stray -> kube-dns:dns-udp", "stray -> kube-dns:dns-tcp",
			"stray -> coredns:dns-udp", "stray -> coredns:dns-tcp", "stray -> node-local-dns:dns-udp", "stray -> node-local-dns:dns-tcp"), got)
		i := slices.IndexFunc(r.NetworkPolicies, func(p *networkingv1.NetworkPolicy) bool { return p.Name == "default-deny" })
		require.GreaterOrEqual(t, i, 0)
		dd := r.NetworkPolicies[i]
		require.Empty(t, dd.Spec.PodSelector.MatchLabels)
		require.Empty(t, dd.Spec.PodSelector.MatchExpressions)
		require.ElementsMatch(t, []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress}, dd.Spec.PolicyTypes)
		require.Empty(t, dd.Spec.Ingress)
		require.Empty(t, dd.Spec.Egress)
	})
}

// natsServerVersion is the nats-server the services are tested against (services/platform,
// whose module the Dockerfile's target nats builds it from).
func natsServerVersion(t *testing.T) string {
	v, ok := requiredVersion(t, filepath.Join(repoRoot, "services/platform/go.mod"), "github.com/nats-io/nats-server/v2")
	require.True(t, ok, "services/platform/go.mod requires no nats-server")
	return strings.TrimPrefix(v, "v")
}

// requiredVersion is the version of module that the go.mod file requires, if it does.
func requiredVersion(t *testing.T, gomod, module string) (string, bool) {
	t.Helper()
	f, err := os.Open(gomod)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "require "))
		if len(fields) >= 2 && fields[0] == module {
			return fields[1], true
		}
	}
	require.NoError(t, sc.Err())
	return "", false
}

// Every module of the workspace that requires nats-server requires the same version: each
// builds on its own (GOWORK=off, as the Dockerfile builds the images), and the workspace
// builds the highest, so a module left behind would run another nats-server than the tests
// and the NATS image (built from services/platform's).
func TestOneNATSServerVersion(t *testing.T) {
	want := "v" + natsServerVersion(t)
	work, err := os.ReadFile(filepath.Join(repoRoot, "go.work"))
	require.NoError(t, err)
	mods := regexp.MustCompile(`(?m)^\s*(\./[\w./-]+)\s*$`).FindAllStringSubmatch(string(work), -1)
	require.NotEmpty(t, mods)
	requiring := 0
	for _, m := range mods {
		v, ok := requiredVersion(t, filepath.Join(repoRoot, m[1], "go.mod"), "github.com/nats-io/nats-server/v2")
		if !ok {
			continue
		}
		requiring++
		require.Equalf(t, want, v, "%s/go.mod requires nats-server %s, services/platform/go.mod %s", m[1], v, want)
	}
	require.GreaterOrEqual(t, requiring, 3, "the services, the CLI and deploy require nats-server")
}

// pinnedByDigest: a fully qualified name (its registry named: podman and other engines refuse
// short names), a tag saying which release, and the digest of the very image.
var pinnedByDigest = regexp.MustCompile(`^(?:[a-z0-9-]+\.[a-z0-9.-]+|localhost)(?::\d+)?/[a-z0-9._/-]+:[\w][\w.-]{0,127}@sha256:[0-9a-f]{64}$`)

func requirePinnedByDigest(t *testing.T, image string) {
	t.Helper()
	require.Regexpf(t, pinnedByDigest, image, "image %s: give it as registry/name:tag@sha256:<digest>", image)
}

func TestPinnedByDigestForm(t *testing.T) {
	for image, ok := range map[string]bool{
		"docker.io/library/golang:1.26.8@sha256:" + strings.Repeat("ab", 32):           true,
		"gcr.io/distroless/static-debian12:nonroot@sha256:" + strings.Repeat("0f", 32): true,
		"localhost:5000/x:1@sha256:" + strings.Repeat("00", 32):                        true,
		"golang:1.26.8@sha256:" + strings.Repeat("ab", 32):                             false, // short name
		"docker.io/library/golang@sha256:" + strings.Repeat("ab", 32):                  false, // no tag
		"docker.io/library/golang:1.26.8":                                              false, // no digest
		"docker.io/library/golang:1.26.8@sha256:abc":                                   false,
		"natsio/prometheus-nats-exporter:0.20.1@sha256:" + strings.Repeat("ab", 32):    false, // docker.io implied
	} {
		require.Equal(t, ok, pinnedByDigest.MatchString(image), image)
	}
}

// Every image the manifests run is fray's own (a target of the Dockerfile, fray-<target>,
// whose registry, tag or digest the operator's overlay sets) or pinned by digest; the NATS
// image is fray-nats, the nats-server of services/platform/go.mod.
func TestImagesArePinned(t *testing.T) {
	stages, err := ParseDockerfile(dockerfile)
	require.NoError(t, err)
	targets := map[string]bool{}
	for _, st := range finalStages(stages) {
		targets[st.Name] = true
	}
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		for _, w := range r.Workloads() {
			for _, c := range allContainers(&w.Template.Spec) {
				name, ours := strings.CutPrefix(path.Base(imageRepo(c.Image)), "fray-")
				if ours {
					require.Truef(t, targets[name], "%s/%s runs %s: the Dockerfile has no target %q", w.Name, c.Name, c.Image, name)
					requirePinned(t, c.Image)
					continue
				}
				requirePinnedByDigest(t, c.Image)
			}
		}
		nats := container(workload(t, r, "nats"), "nats")
		require.Equal(t, "fray-nats", path.Base(imageRepo(nats.Image)), "NATS runs the nats-server the tests run, built by the Dockerfile")
	})
}

func TestServicesReachDeclaredPorts(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		for _, s := range r.Services {
			sel := podsSelected(t, r, &metav1.LabelSelector{MatchLabels: s.Spec.Selector})
			require.Lenf(t, sel, 1, "Service %s selects the pods of exactly one workload", s.Name)
			w := workload(t, r, sel[0])
			var ports []corev1.ContainerPort
			for _, c := range w.Template.Spec.Containers {
				ports = append(ports, c.Ports...)
			}
			for _, p := range s.Spec.Ports {
				target := p.TargetPort
				if target.Type == intstr.Int && target.IntVal == 0 {
					target = intstr.FromInt32(p.Port)
				}
				cp, ok := portOf(ports, target)
				require.Truef(t, ok, "Service %s port %s: no container port %s in %s", s.Name, p.Name, target.String(), w.Name)
				require.Equal(t, p.Port, cp.ContainerPort, "Service %s port %s: the same number outside and in", s.Name, p.Name)
			}
		}
		svc := func(name string) *corev1.Service {
			i := slices.IndexFunc(r.Services, func(s *corev1.Service) bool { return s.Name == name })
			require.GreaterOrEqual(t, i, 0, name)
			return r.Services[i]
		}
		// The resolver is reached by DNS, every ready pod (dns:/// in the encounter service).
		require.Equal(t, corev1.ClusterIPNone, svc("resolver").Spec.ClusterIP)
		addr, _ := env(container(workload(t, r, "encounter"), "encounter"), "FRAY_RESOLVER_ADDR")
		require.Equal(t, fmt.Sprintf("dns:///resolver:%d", svc("resolver").Spec.Ports[0].Port), addr)
		natsURL, _ := env(container(workload(t, r, "encounter"), "encounter"), "FRAY_NATS_URL")
		scheme := "nats"
		if o.prod {
			scheme = "tls" // TestNATSConfiguration: the client port speaks TLS in prod
		}
		require.Equal(t, fmt.Sprintf("%s://nats:%d", scheme, svc("nats").Spec.Ports[0].Port), natsURL)
		// NATS nodes find each other by name before they are ready.
		h := svc(r.StatefulSets[0].Spec.ServiceName)
		require.Equal(t, corev1.ClusterIPNone, h.Spec.ClusterIP)
		require.True(t, h.Spec.PublishNotReadyAddresses)
	})
}

// Every ConfigMap, Secret and key a pod names exists, and every file a FRAY_ variable names is
// a key of a mounted volume.
func TestReferencesResolve(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) { checkReferences(t, r) })
}

func checkReferences(t *testing.T, r *Rendered) {
	t.Helper()
	keysOf := func(kind, name string) map[string]bool {
		keys := map[string]bool{}
		switch kind {
		case "ConfigMap":
			cm := r.ConfigMap(name)
			require.NotNilf(t, cm, "no ConfigMap %s", name)
			require.Equal(t, name, cm.Name, "a reference kustomize did not rewrite to the generated name")
			for k := range cm.Data {
				keys[k] = true
			}
		case "Secret":
			s := r.Secret(name)
			require.NotNilf(t, s, "no Secret %s", name)
			require.Equal(t, name, s.Name, "a reference kustomize did not rewrite to the generated name")
			for k := range s.Data {
				keys[k] = true
			}
		}
		return keys
	}
	for _, w := range r.Workloads() {
		pod := &w.Template.Spec
		files := map[string]map[string]bool{} // volume name -> its keys
		for _, v := range pod.Volumes {
			switch {
			case v.ConfigMap != nil:
				files[v.Name] = keysOf("ConfigMap", v.ConfigMap.Name)
			case v.Secret != nil:
				files[v.Name] = keysOf("Secret", v.Secret.SecretName)
			case v.Projected != nil:
				files[v.Name] = map[string]bool{}
				for _, s := range v.Projected.Sources {
					require.NotNil(t, s.ConfigMap)
					maps.Copy(files[v.Name], keysOf("ConfigMap", s.ConfigMap.Name))
				}
			}
		}
		for _, c := range allContainers(pod) {
			for _, ef := range c.EnvFrom {
				if ef.ConfigMapRef != nil {
					keysOf("ConfigMap", ef.ConfigMapRef.Name)
				}
				if ef.SecretRef != nil {
					keysOf("Secret", ef.SecretRef.Name)
				}
			}
			mounts := map[string]string{}
			for _, m := range c.VolumeMounts {
				ok := slices.ContainsFunc(pod.Volumes, func(v corev1.Volume) bool { return v.Name == m.Name }) || slices.Contains(w.Claims, m.Name)
				require.Truef(t, ok, "%s mounts no volume %s", c.Name, m.Name)
				mounts[m.MountPath] = m.Name
			}
			for _, e := range c.Env {
				if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
					ref := e.ValueFrom.SecretKeyRef
					require.Truef(t, keysOf("Secret", ref.Name)[ref.Key], "%s: Secret %s has no key %s", e.Name, ref.Name, ref.Key)
				}
				if e.ValueFrom != nil && e.ValueFrom.ConfigMapKeyRef != nil {
					ref := e.ValueFrom.ConfigMapKeyRef
					require.Truef(t, keysOf("ConfigMap", ref.Name)[ref.Key], "%s: ConfigMap %s has no key %s", e.Name, ref.Name, ref.Key)
				}
				if strings.HasPrefix(e.Name, "FRAY_") && strings.HasPrefix(e.Value, "/") {
					dir, file := filepath.Split(e.Value)
					vol, ok := mounts[strings.TrimSuffix(dir, "/")]
					require.Truef(t, ok, "%s=%s: no volume is mounted at %s", e.Name, e.Value, dir)
					require.Truef(t, files[vol][file], "%s=%s: volume %s has no file %s", e.Name, e.Value, vol, file)
				}
			}
		}
	}
}

// No secret is committed: every Secret, and the deployment-specific public files, are
// placeholders saying REPLACE-ME.
func TestSecretsArePlaceholders(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		require.NotEmpty(t, r.Secrets)
		for _, s := range r.Secrets {
			require.NotEmpty(t, s.Data, s.Name)
			for k, v := range s.Data {
				require.Containsf(t, string(v), "REPLACE-ME", "Secret %s key %s: only placeholders belong in the repository", s.Name, k)
			}
		}
		for _, name := range []string{"fray-jwks", "fray-ca"} {
			for k, v := range r.ConfigMap(name).Data {
				require.Containsf(t, v, "REPLACE-ME", "ConfigMap %s key %s", name, k)
			}
		}
		require.Contains(t, r.ConfigMap("fray-config").Data["FRAY_TOKEN_ISSUER"], "REPLACE-ME")
		// The gateway refuses to start on it (services/gateway/cmd/gateway's tests).
		require.Contains(t, r.ConfigMap("fray-gateway").Data["FRAY_GATEWAY_ALLOWED_HOSTS"], "REPLACE-ME")
		users := r.ConfigMap("nats-config").Data["users.conf"]
		require.Equal(t, 2, strings.Count(users, `"REPLACE-ME`), "the NATS users' public NKeys are placeholders")
	})
}

func TestPrometheusScrapesTheMetricsPort(t *testing.T) {
	eachOverlay(t, func(t *testing.T, o overlay, r *Rendered) {
		for _, w := range r.Workloads() {
			a := w.Template.Annotations
			if w.Name == "gateway" {
				// No metrics of its own: each call it sends on is counted by the encounter
				// service, where it arrives.
				require.Empty(t, a["prometheus.io/scrape"], "the gateway has no metrics port")
				continue
			}
			require.Equalf(t, "true", a["prometheus.io/scrape"], "%s is scraped", w.Name)
			require.Equal(t, "/metrics", a["prometheus.io/path"])
			var ports []corev1.ContainerPort
			for _, c := range w.Template.Spec.Containers {
				ports = append(ports, c.Ports...)
			}
			cp, ok := portOf(ports, intstr.FromString("metrics"))
			require.Truef(t, ok, "%s has a port named metrics", w.Name)
			require.Equal(t, strconv.Itoa(int(cp.ContainerPort)), a["prometheus.io/port"], w.Name)
		}
	})
}

// imageRepo is an image reference without its tag or digest.
func imageRepo(image string) string {
	ref, _, _ := strings.Cut(image, "@")
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i]
	}
	return ref
}

// requirePinned: a tag other than latest, or a digest.
func requirePinned(t *testing.T, image string) {
	t.Helper()
	if strings.Contains(image, "@sha256:") {
		return
	}
	repo := imageRepo(image)
	tag, ok := strings.CutPrefix(image, repo+":")
	require.Truef(t, ok && tag != "", "image %s has no tag: pin it", image)
	require.NotEqualf(t, "latest", tag, "image %s: pin a version, not latest", image)
}
