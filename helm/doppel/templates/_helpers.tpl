{{/* Names: "<release>" when it already contains "doppel", else "<release>-doppel". */}}
{{- define "doppel.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "doppel.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one component (news, mail, api). Call with (dict "root" $ "component" "news"). */}}
{{- define "doppel.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
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

{{/* The components that are enabled, as a list of dicts {name, kind, spec}. */}}
{{- define "doppel.components" -}}
{{- $out := list -}}
{{- range $name := list "news" "mail" -}}
{{- $c := index $.Values.consumers $name -}}
{{- if $c.enabled -}}{{- $out = append $out (dict "name" $name "kind" "consumer" "spec" $c) -}}{{- end -}}
{{- end -}}
{{- if .Values.api.enabled -}}{{- $out = append $out (dict "name" "api" "kind" "api" "spec" .Values.api) -}}{{- end -}}
{{- toJson $out -}}
{{- end -}}
