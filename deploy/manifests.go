// Package deploy renders fray's Kubernetes manifests (deploy/k8s) the way `kubectl apply -k`
// does, and decodes every object strictly into its Kubernetes type, for the tests that check
// what the overlays deploy.
package deploy

import (
	"bytes"
	"fmt"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	k8sjson "sigs.k8s.io/json"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// Rendered is an overlay's objects, each decoded into its Kubernetes type.
type Rendered struct {
	Namespaces      []*corev1.Namespace
	ServiceAccounts []*corev1.ServiceAccount
	Services        []*corev1.Service
	ConfigMaps      []*corev1.ConfigMap
	Secrets         []*corev1.Secret
	Deployments     []*appsv1.Deployment
	StatefulSets    []*appsv1.StatefulSet
	NetworkPolicies []*networkingv1.NetworkPolicy
	PDBs            []*policyv1.PodDisruptionBudget
	HPAs            []*autoscalingv2.HorizontalPodAutoscaler
	PriorityClasses []*schedulingv1.PriorityClass
	// Names lists every object as "Kind/name", in the rendering's order.
	Names []string
}

// Render builds the kustomization in dir (as `kubectl kustomize dir`, with kustomize's
// default load restrictions) and decodes each object strictly: a field its type does not
// have, a field given twice or in the wrong case, or a kind this package does not know is an
// error.
func Render(dir string) (*Rendered, error) {
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	out := &Rendered{}
	for _, r := range m.Resources() {
		data, err := r.MarshalJSON()
		if err != nil {
			return nil, err
		}
		kind, name := r.GetKind(), r.GetName()
		gv := r.GetApiVersion()
		var obj any
		switch gv + " " + kind {
		case "v1 Namespace":
			o := &corev1.Namespace{}
			out.Namespaces, obj = append(out.Namespaces, o), o
		case "v1 ServiceAccount":
			o := &corev1.ServiceAccount{}
			out.ServiceAccounts, obj = append(out.ServiceAccounts, o), o
		case "v1 Service":
			o := &corev1.Service{}
			out.Services, obj = append(out.Services, o), o
		case "v1 ConfigMap":
			o := &corev1.ConfigMap{}
			out.ConfigMaps, obj = append(out.ConfigMaps, o), o
		case "v1 Secret":
			o := &corev1.Secret{}
			out.Secrets, obj = append(out.Secrets, o), o
		case "apps/v1 Deployment":
			o := &appsv1.Deployment{}
			out.Deployments, obj = append(out.Deployments, o), o
		case "apps/v1 StatefulSet":
			o := &appsv1.StatefulSet{}
			out.StatefulSets, obj = append(out.StatefulSets, o), o
		case "networking.k8s.io/v1 NetworkPolicy":
			o := &networkingv1.NetworkPolicy{}
			out.NetworkPolicies, obj = append(out.NetworkPolicies, o), o
		case "policy/v1 PodDisruptionBudget":
			o := &policyv1.PodDisruptionBudget{}
			out.PDBs, obj = append(out.PDBs, o), o
		case "autoscaling/v2 HorizontalPodAutoscaler":
			o := &autoscalingv2.HorizontalPodAutoscaler{}
			out.HPAs, obj = append(out.HPAs, o), o
		case "scheduling.k8s.io/v1 PriorityClass":
			o := &schedulingv1.PriorityClass{}
			out.PriorityClasses, obj = append(out.PriorityClasses, o), o
		default:
			return nil, fmt.Errorf("%s: %s/%s is a kind this test does not decode; add it to deploy.Render", dir, gv, kind)
		}
		if err := decodeStrict(data, obj); err != nil {
			return nil, fmt.Errorf("%s: %s/%s: %w", dir, kind, name, err)
		}
		out.Names = append(out.Names, kind+"/"+name)
	}
	return out, nil
}

// decodeStrict is the API server's strict decoding (kubectl apply --validate=strict): JSON
// field names case-sensitive, an unknown or duplicated field an error.
func decodeStrict(data []byte, into any) error {
	strict, err := k8sjson.UnmarshalStrict(data, into, k8sjson.DisallowUnknownFields)
	if err != nil {
		return err
	}
	if len(strict) > 0 {
		var b bytes.Buffer
		for i, e := range strict {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(e.Error())
		}
		return fmt.Errorf("strict decoding: %s", b.String())
	}
	return nil
}

// Workload is a Deployment or a StatefulSet: a name, a replica count, a pod template and
// (a StatefulSet's) the names of its volume claim templates.
type Workload struct {
	Kind, Name string
	Replicas   int32
	Template   *corev1.PodTemplateSpec
	Claims     []string
}

// Workloads are the Deployments and StatefulSets, sorted by name.
func (r *Rendered) Workloads() []Workload {
	var ws []Workload
	for _, d := range r.Deployments {
		ws = append(ws, Workload{Kind: "Deployment", Name: d.Name, Replicas: replicas(d.Spec.Replicas), Template: &d.Spec.Template})
	}
	for _, s := range r.StatefulSets {
		w := Workload{Kind: "StatefulSet", Name: s.Name, Replicas: replicas(s.Spec.Replicas), Template: &s.Spec.Template}
		for _, c := range s.Spec.VolumeClaimTemplates {
			w.Claims = append(w.Claims, c.Name)
		}
		ws = append(ws, w)
	}
	slices.SortFunc(ws, func(a, b Workload) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return ws
}

func replicas(n *int32) int32 {
	if n == nil {
		return 1
	}
	return *n
}

// ConfigMap is the ConfigMap whose name is name or name-<hash> (kustomize's generated
// names), nil if none.
func (r *Rendered) ConfigMap(name string) *corev1.ConfigMap {
	for _, c := range r.ConfigMaps {
		if c.Name == name || generated(c.Name, name) {
			return c
		}
	}
	return nil
}

// Secret is ConfigMap for Secrets.
func (r *Rendered) Secret(name string) *corev1.Secret {
	for _, s := range r.Secrets {
		if s.Name == name || generated(s.Name, name) {
			return s
		}
	}
	return nil
}

// generated tells whether got is base with kustomize's hash suffix (-<10 characters>).
func generated(got, base string) bool {
	return len(got) == len(base)+11 && got[:len(base)+1] == base+"-"
}
