{{- define "ragsearch-operator.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "ragsearch-operator.serviceAccountName" -}}
{{- default (include "ragsearch-operator.fullname" .) .Values.serviceAccount.name -}}
{{- end -}}

{{- define "ragsearch-operator.labels" -}}
app.kubernetes.io/name: ragsearch-operator
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "ragsearch-operator.selector" -}}
app.kubernetes.io/name: ragsearch-operator
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "ragsearch-operator.watchNamespaces" -}}
{{- if eq .Values.rbac.scope "namespace" -}}
{{- if .Values.rbac.watchNamespaces -}}
{{- join "," .Values.rbac.watchNamespaces -}}
{{- else -}}
{{- .Release.Namespace -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* What the operator does, and nothing more: it never lists Secrets, only reads the ones a spec names. */}}
{{- define "ragsearch-operator.rules" -}}
- apiGroups: ["ragsearch.io"]
  resources: ["ragsearches"]
  verbs: ["get", "list", "watch", "patch", "update"]
- apiGroups: ["ragsearch.io"]
  resources: ["ragsearches/status"]
  verbs: ["get", "patch", "update"]
- apiGroups: ["ragsearch.io"]
  resources: ["ragsearches/finalizers"]
  verbs: ["update"]
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
- apiGroups: [""]
  resources: ["services", "configmaps"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
- apiGroups: ["policy"]
  resources: ["poddisruptionbudgets"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
- apiGroups: ["networking.k8s.io"]
  resources: ["networkpolicies"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
- apiGroups: ["autoscaling"]
  resources: ["horizontalpodautoscalers"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch"]
# In-place resize of the search pods' memory and CPU (docs/operator.md); nothing else of a pod.
- apiGroups: [""]
  resources: ["pods/resize"]
  verbs: ["patch"]
- apiGroups: [""]
  resources: ["secrets", "persistentvolumeclaims"]
  verbs: ["get"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "patch"]
{{- end -}}

{{/* A label map as k=v,k=v (sorted), for METRICS_SCRAPE_POD_LABELS. */}}
{{- define "ragsearch-operator.labelList" -}}
{{- $pairs := list -}}
{{- range $k, $v := . -}}{{- $pairs = append $pairs (printf "%s=%s" $k $v) -}}{{- end -}}
{{- join "," $pairs -}}
{{- end -}}
