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
{{- with .group }}
finance-api/worker-group: {{ . }}
{{- end }}
{{- end }}

{{/*
Every worker Deployment of the release as JSON {"list": [...]}: one per service without
worker.groups, else one per group. Each item: service, group ("" when none), port, queues (the
group's, empty meaning every queue), values (the worker's values with the group's merged over).
Read with (include "finance-api.workers" $ | fromJson).list.
*/}}
{{- define "finance-api.workers" -}}
{{- $list := list }}
{{- range $service, $svc := .Values.services }}
{{- if and $svc.worker $svc.worker.enabled }}
{{- if $svc.worker.groups }}
{{- range $group, $g := $svc.worker.groups }}
{{- $values := mergeOverwrite (deepCopy (omit $svc.worker "groups")) (deepCopy (omit $g "queues")) }}
{{- $list = append $list (dict "service" $service "group" $group "port" $svc.port "queues" $g.queues "values" $values) }}
{{- end }}
{{- else }}
{{- $list = append $list (dict "service" $service "group" "" "port" $svc.port "queues" list "values" (omit $svc.worker "groups")) }}
{{- end }}
{{- end }}
{{- end }}
{{- dict "list" $list | toJson }}
{{- end }}

{{/*
Name of one workload: <fullname>-<service> for the API, <fullname>-<service>-worker for workers.
The prefix is shortened, never the suffix, so a long fullnameOverride cannot make two names collide.
*/}}
{{- define "finance-api.workloadName" -}}
{{- $suffix := ternary (printf "-%s-worker" .service) (printf "-%s" .service) (eq .role "worker") }}
{{- if .group }}{{ $suffix = printf "%s-%s" $suffix .group }}{{ end }}
{{- include "finance-api.suffixedName" (dict "root" .root "suffix" $suffix) }}
{{- end }}

{{/*
<fullname><suffix> within 63 characters, shortening the fullname. Call with (dict "root" $ "suffix" "-test").
*/}}
{{- define "finance-api.suffixedName" -}}
{{- $prefix := include "finance-api.fullname" .root | trunc (int (sub 63 (len .suffix))) | trimSuffix "-" }}
{{- printf "%s%s" $prefix .suffix }}
{{- end }}

{{/*
Image reference: repository@digest when a digest is set, else repository:tag.
*/}}
{{- define "finance-api.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
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
Data of the chart-managed Secret (base64 values), as YAML. Nothing is random and nothing is looked
up in the cluster, so every render of the same values is byte-identical (GitOps syncs never rotate
a secret). A missing value fails the render, unless secrets.development=true derives one from the
release name and namespace (stable but guessable: development only).
*/}}
{{- define "finance-api.secretData" -}}
{{- $s := .Values.secrets }}
{{- $dev := $s.development }}
{{- $seed := printf "finance-api/%s/%s" .Release.Namespace .Release.Name }}
{{- $given := dict "DATABASE_URL" $s.databaseUrl "REDIS_URL" $s.redisUrl "INTERNAL_SECRET" $s.internalSecret "KEY_PEPPER" $s.keyPepper "ADMIN_SECRET" $s.adminSecret }}
{{- $devDefaults := dict "DATABASE_URL" "postgresql://postgres@postgresql:5432/finance" "REDIS_URL" "redis://redis-master:6379" }}
{{- $names := dict "DATABASE_URL" "databaseUrl" "REDIS_URL" "redisUrl" "INTERNAL_SECRET" "internalSecret" "KEY_PEPPER" "keyPepper" }}
{{- $missing := list }}
{{- range $key := list "DATABASE_URL" "REDIS_URL" "INTERNAL_SECRET" "KEY_PEPPER" }}
{{- if and (not (get $given $key)) (not $dev) }}
{{- $missing = append $missing (printf "secrets.%s" (get $names $key)) }}
{{- end }}
{{- end }}
{{- if $missing }}
{{- fail (printf "no secrets: set secrets.existingSecret to a Secret you manage (keys DATABASE_URL, REDIS_URL, INTERNAL_SECRET, KEY_PEPPER, ADMIN_SECRET), or set %s, or secrets.development=true for a throwaway install" (join ", " $missing)) }}
{{- end }}
{{- range $key := list "DATABASE_URL" "REDIS_URL" "INTERNAL_SECRET" "KEY_PEPPER" "ADMIN_SECRET" }}
{{- $value := get $given $key }}
{{- if and (not $value) $dev }}
{{- $value = get $devDefaults $key | default (printf "%s/%s" $seed $key | sha256sum) }}
{{- end }}
{{- if $value }}
{{ $key }}: {{ $value | toString | b64enc | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/*
True (non-empty) when the gateway has an ADMIN_SECRET to read: from values or development mode,
or assumed present in an existingSecret.
*/}}
{{- define "finance-api.hasAdminSecret" -}}
{{- if or .Values.secrets.existingSecret .Values.secrets.adminSecret .Values.secrets.development }}true{{ end }}
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
      {{- if .optional }}
      optional: true
      {{- end }}
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
