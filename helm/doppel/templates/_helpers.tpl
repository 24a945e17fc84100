{{/* The chart's name: nameOverride or "doppel". */}}
{{- define "doppel.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 50 | trimSuffix "-" -}}
{{- end -}}

{{/*
Object name prefix: fullnameOverride, else "<release>" when it already contains the name, else
"<release>-<name>". 50 characters at most: suffixes such as "-news-metrics" must still fit in 63.
*/}}
{{- define "doppel.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "doppel.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "doppel.labels" -}}
app.kubernetes.io/name: {{ include "doppel.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one component (news, mail, api). Call with (dict "root" $ "component" "news"). */}}
{{- define "doppel.selector" -}}
app.kubernetes.io/name: {{ include "doppel.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "doppel.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "doppel.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
The components that are enabled, as a list of dicts {name, kind, spec, scaler}. scaler says who
owns the replica count: "keda" (a consumer's keda.enabled wins over its HPA), "hpa", or "none"
(the Deployment's replicas).
*/}}
{{- define "doppel.components" -}}
{{- $out := list -}}
{{- range $name := list "news" "mail" -}}
{{- $c := index $.Values.consumers $name -}}
{{- if $c.enabled -}}
{{- $scaler := ternary "keda" (ternary "hpa" "none" $c.autoscaling.enabled) $c.keda.enabled -}}
{{- $out = append $out (dict "name" $name "kind" "consumer" "spec" $c "scaler" $scaler) -}}
{{- end -}}
{{- end -}}
{{- if .Values.api.enabled -}}
{{- $scaler := ternary "hpa" "none" .Values.api.autoscaling.enabled -}}
{{- $out = append $out (dict "name" "api" "kind" "api" "spec" .Values.api "scaler" $scaler) -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}

{{/* A consumer's Kafka consumer group: its groupId, else doppel-<profile> (the process's default). */}}
{{- define "doppel.groupId" -}}
{{- default (printf "doppel-%s" .profile) .groupId -}}
{{- end -}}

{{/* Label matcher that scopes alert expressions to the release's namespace. */}}
{{- define "doppel.alertScope" -}}
namespace="{{ .Release.Namespace }}"
{{- end -}}

{{/* HPA behavior of every autoscaler (the chart's HPAs and KEDA's). */}}
{{- define "doppel.scaleDownBehavior" -}}
# A consumer group rebalances on every scale step: scale down slowly.
scaleDown:
  stabilizationWindowSeconds: 300
  policies:
    - type: Pods
      value: 1
      periodSeconds: 120
{{- end -}}
