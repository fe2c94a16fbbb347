{{/*
Pod template of one workload (API or worker). Call with
(dict "root" $ "service" "ledger" "role" "api" "port" 8081 "resources" $resources).
*/}}
{{- define "finance-api.podTemplate" -}}
{{- $root := .root -}}
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
      env:
        - name: ROLE
          value: {{ .role | quote }}
        - name: PORT
          value: {{ .port | quote }}
        {{- include "finance-api.secretEnv" (dict "root" $root "key" "DATABASE_URL") | nindent 8 }}
        {{- include "finance-api.secretEnv" (dict "root" $root "key" "REDIS_URL") | nindent 8 }}
        {{- include "finance-api.secretEnv" (dict "root" $root "key" "INTERNAL_SECRET") | nindent 8 }}
        {{- if eq .service "gateway" }}
        {{- include "finance-api.secretEnv" (dict "root" $root "key" "KEY_PEPPER") | nindent 8 }}
        {{- include "finance-api.secretEnv" (dict "root" $root "key" "ADMIN_SECRET") | nindent 8 }}
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
        {{- toYaml .resources | nindent 8 }}
      securityContext:
        {{- toYaml $root.Values.pod.containerSecurityContext | nindent 8 }}
      volumeMounts:
        - name: tmp
          mountPath: /tmp
  volumes:
    - name: tmp
      emptyDir:
        sizeLimit: {{ $root.Values.pod.tmpSizeLimit }}
  {{- with $root.Values.pod.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $root.Values.pod.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $root.Values.pod.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
