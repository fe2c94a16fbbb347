{{/*
Pod template of one workload (API or worker). Call with
(dict "root" $ "service" "ledger" "role" "api" "port" 8081 "workload" $svc.api). The workload's
resources, nodeSelector, tolerations and affinity come from "workload"; the rest from pod.*.
*/}}
{{- define "finance-api.podTemplate" -}}
{{- $root := .root -}}
{{- $w := .workload -}}
{{- $selector := fromYaml (include "finance-api.selectorLabels" .) -}}
metadata:
  labels:
    {{- include "finance-api.labels" $root | nindent 4 }}
    {{- include "finance-api.componentLabels" . | nindent 4 }}
    {{- with $root.Values.pod.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  annotations:
    {{- include "finance-api.podAnnotations" (dict "root" $root "port" .port "service" .service) | nindent 4 }}
spec:
  serviceAccountName: {{ include "finance-api.serviceAccountName" $root }}
  automountServiceAccountToken: {{ $root.Values.serviceAccount.automountServiceAccountToken }}
  {{- with $root.Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  terminationGracePeriodSeconds: {{ $root.Values.pod.terminationGracePeriodSeconds }}
  securityContext:
    {{- toYaml $root.Values.pod.securityContext | nindent 4 }}
  containers:
    - name: {{ .service }}
      image: {{ include "finance-api.image" $root | quote }}
      imagePullPolicy: {{ $root.Values.image.pullPolicy }}
      # args, not command: the image's entrypoint (tini) stays PID 1 and forwards SIGTERM.
      args: ["node", "services/{{ .service }}/src/main.ts"]
      ports:
        - name: http
          containerPort: {{ .port }}
          protocol: TCP
      envFrom:
        - configMapRef:
            name: {{ include "finance-api.fullname" $root }}
        {{- with $root.Values.pod.extraEnvFrom }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      env:
        - name: ROLE
          value: {{ .role | quote }}
        - name: PORT
          value: {{ .port | quote }}
        {{- if eq .role "worker" }}
        - name: WORKER_CONCURRENCY
          value: {{ $w.concurrency | quote }}
        {{- with .queues }}
        - name: WORKER_QUEUES
          value: {{ join "," . | quote }}
        {{- end }}
        {{- range $name, $value := $w.env }}
        - name: {{ $name }}
          value: {{ $value | quote }}
        {{- end }}
        {{- end }}
        {{- include "finance-api.secretEnv" (dict "root" $root "key" "DATABASE_URL") | nindent 8 }}
        {{- include "finance-api.secretEnv" (dict "root" $root "key" "REDIS_URL") | nindent 8 }}
        {{- include "finance-api.secretEnv" (dict "root" $root "key" "INTERNAL_SECRET") | nindent 8 }}
        {{- if eq .service "gateway" }}
        {{- include "finance-api.secretEnv" (dict "root" $root "key" "KEY_PEPPER") | nindent 8 }}
        {{- if include "finance-api.hasAdminSecret" $root }}
        {{- include "finance-api.secretEnv" (dict "root" $root "key" "ADMIN_SECRET" "optional" (not (empty $root.Values.secrets.existingSecret))) | nindent 8 }}
        {{- end }}
        {{- end }}
      {{- if $root.Values.pod.preStopSleepSeconds }}
      # Endpoint removal takes a moment to reach kube-proxy and load balancers: keep serving
      # meanwhile, then SIGTERM drains in-flight requests and jobs.
      lifecycle:
        preStop:
          exec:
            command: ["sleep", "{{ $root.Values.pod.preStopSleepSeconds }}"]
      {{- end }}
      startupProbe:
        httpGet:
          path: /healthz
          port: http
        periodSeconds: {{ $root.Values.probes.startup.periodSeconds }}
        failureThreshold: {{ $root.Values.probes.startup.failureThreshold }}
        timeoutSeconds: {{ $root.Values.probes.startup.timeoutSeconds }}
      livenessProbe:
        httpGet:
          path: /healthz
          port: http
        periodSeconds: {{ $root.Values.probes.liveness.periodSeconds }}
        failureThreshold: {{ $root.Values.probes.liveness.failureThreshold }}
        timeoutSeconds: {{ $root.Values.probes.liveness.timeoutSeconds }}
      readinessProbe:
        httpGet:
          path: /readyz
          port: http
        periodSeconds: {{ $root.Values.probes.readiness.periodSeconds }}
        failureThreshold: {{ $root.Values.probes.readiness.failureThreshold }}
        timeoutSeconds: {{ $root.Values.probes.readiness.timeoutSeconds }}
      resources:
        {{- toYaml $w.resources | nindent 8 }}
      securityContext:
        {{- toYaml $root.Values.pod.containerSecurityContext | nindent 8 }}
      volumeMounts:
        - name: tmp
          mountPath: /tmp
        {{- with $root.Values.pod.extraVolumeMounts }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
  volumes:
    - name: tmp
      emptyDir:
        sizeLimit: {{ $root.Values.pod.tmpSizeLimit }}
    {{- with $root.Values.pod.extraVolumes }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with ($w.nodeSelector | default $root.Values.pod.nodeSelector) }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with ($w.tolerations | default $root.Values.pod.tolerations) }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with ($w.affinity | default $root.Values.pod.affinity) }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- else }}
  {{- if $root.Values.pod.softAntiAffinity }}
  affinity:
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 100
          podAffinityTerm:
            topologyKey: kubernetes.io/hostname
            labelSelector:
              matchLabels:
                {{- toYaml $selector | nindent 16 }}
  {{- end }}
  {{- end }}
  {{- if $root.Values.pod.topologySpreadConstraints }}
  topologySpreadConstraints:
    {{- range $root.Values.pod.topologySpreadConstraints }}
    {{- $c := deepCopy . }}
    {{- if not (hasKey $c "labelSelector") }}
    {{- $_ := set $c "labelSelector" (dict "matchLabels" $selector) }}
    {{- end }}
    - {{- toYaml $c | nindent 6 }}
    {{- end }}
  {{- else if $root.Values.pod.defaultTopologySpread }}
  topologySpreadConstraints:
    {{- range $key := list "topology.kubernetes.io/zone" "kubernetes.io/hostname" }}
    - maxSkew: 1
      topologyKey: {{ $key }}
      whenUnsatisfiable: ScheduleAnyway
      labelSelector:
        matchLabels:
          {{- toYaml $selector | nindent 10 }}
    {{- end }}
  {{- end }}
{{- end }}
