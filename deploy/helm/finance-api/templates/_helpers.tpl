{{/*
Chart name, truncated to 63 chars (DNS label limit).
*/}}
{{- define "finance-api.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Full name prefix of every resource: <release>-<chart> unless overridden.
*/}}
{{- define "finance-api.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Chart label value.
*/}}
{{- define "finance-api.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels shared by every resource.
*/}}
{{- define "finance-api.labels" -}}
helm.sh/chart: {{ include "finance-api.chart" . }}
app.kubernetes.io/name: {{ include "finance-api.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: finance-api
{{- end }}

{{/*
Selector labels of the whole release (every pod of this release carries them).
*/}}
{{- define "finance-api.releaseSelectorLabels" -}}
app.kubernetes.io/name: {{ include "finance-api.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Selector labels of one workload. Call with (dict "root" $ "service" "ledger" "role" "api").
*/}}
{{- define "finance-api.selectorLabels" -}}
{{ include "finance-api.releaseSelectorLabels" .root }}
{{ include "finance-api.componentLabels" . }}
{{- end }}

{{/*
Labels telling one workload from the others, added on top of finance-api.labels.
*/}}
{{- define "finance-api.componentLabels" -}}
app.kubernetes.io/component: {{ .service }}
finance-api/role: {{ .role }}
{{- end }}

{{/*
Name of one workload: <fullname>-<service> for the API, <fullname>-<service>-worker for workers.
*/}}
{{- define "finance-api.workloadName" -}}
{{- if eq .role "worker" }}
{{- printf "%s-%s-worker" (include "finance-api.fullname" .root) .service | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" (include "finance-api.fullname" .root) .service | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/*
Image reference.
*/}}
{{- define "finance-api.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/*
ServiceAccount name.
*/}}
{{- define "finance-api.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "finance-api.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
Name of the Secret holding DATABASE_URL, REDIS_URL, INTERNAL_SECRET, KEY_PEPPER, ADMIN_SECRET.
*/}}
{{- define "finance-api.secretName" -}}
{{- default (include "finance-api.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{/*
Data of the chart-managed Secret (base64 values), as YAML. A value given in values.yaml wins;
otherwise the value already stored in the cluster is kept (so upgrades never rotate generated
secrets); otherwise a random one is generated.
*/}}
{{- define "finance-api.secretData" -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "finance-api.fullname" .) }}
{{- $old := dict }}
{{- if and $existing $existing.data }}
{{- $old = $existing.data }}
{{- end }}
{{- $s := .Values.secrets }}
{{- $given := dict "DATABASE_URL" $s.databaseUrl "REDIS_URL" $s.redisUrl "INTERNAL_SECRET" $s.internalSecret "KEY_PEPPER" $s.keyPepper "ADMIN_SECRET" $s.adminSecret }}
{{- range $key := list "DATABASE_URL" "REDIS_URL" "INTERNAL_SECRET" "KEY_PEPPER" "ADMIN_SECRET" }}
{{- $value := get $given $key }}
{{- if $value }}
{{ $key }}: {{ $value | toString | b64enc | quote }}
{{- else if hasKey $old $key }}
{{ $key }}: {{ get $old $key | quote }}
{{- else if or (eq $key "DATABASE_URL") (eq $key "REDIS_URL") }}
{{- fail (printf "secrets.%s must be set (or use secrets.existingSecret)" (ternary "databaseUrl" "redisUrl" (eq $key "DATABASE_URL"))) }}
{{- else }}
{{ $key }}: {{ randAlphaNum 48 | b64enc | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Environment variable read from the release Secret.
*/}}
{{- define "finance-api.secretEnv" -}}
- name: {{ .key }}
  valueFrom:
    secretKeyRef:
      name: {{ include "finance-api.secretName" .root }}
      key: {{ .key }}
{{- end }}

{{/*
Pod annotations shared by API and worker pods. Call with (dict "root" $ "port" 8081 "service" "ledger").
The gateway's pods get no prometheus.io annotations: its /metrics asks for ADMIN_SECRET, which
annotation-driven scraping cannot send (scrape it with metrics.serviceMonitor or a job with the bearer).
*/}}
{{- define "finance-api.podAnnotations" -}}
checksum/config: {{ include (print .root.Template.BasePath "/configmap.yaml") .root | sha256sum }}
checksum/secret-values: {{ toYaml .root.Values.secrets | sha256sum }}
{{- if and .root.Values.metrics.podAnnotations (ne .service "gateway") }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: /metrics
{{- end }}
{{- with .root.Values.pod.annotations }}
{{ toYaml . }}
{{- end }}
{{- end }}
