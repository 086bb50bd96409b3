{{/* The selector label, the one the kustomize base puts on the Pods. */}}
{{- define "dra-controller.selectorLabels" -}}
app.kubernetes.io/name: dra-controller
{{- end }}

{{/* Labels of every object: the kustomize base's, then Helm's. */}}
{{- define "dra-controller.labels" -}}
{{ include "dra-controller.selectorLabels" . }}
app.kubernetes.io/part-of: dra-controller
{{ include "dra-controller.helmLabels" . }}
{{- end }}

{{/* The labels Helm adds on top of the kustomize install. */}}
{{- define "dra-controller.helmLabels" -}}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end }}

{{/* repository:tag, or repository@digest when a digest is given. */}}
{{- define "dra-controller.image" -}}
{{- $image := .Values.image -}}
{{- if $image.digest -}}
{{- if not (regexMatch "^sha256:[0-9a-f]{64}$" $image.digest) -}}
{{- fail (printf "image.digest %q is not sha256:<64 hex digits>" $image.digest) -}}
{{- end -}}
{{ $image.repository }}@{{ $image.digest }}
{{- else -}}
{{ $image.repository }}:{{ $image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end }}

{{/* The Secret mounted as the serving certificate; empty: none. */}}
{{- define "dra-controller.tlsSecretName" -}}
{{- if .Values.tls.secretName -}}
{{ .Values.tls.secretName }}
{{- else if .Values.tls.certManager.enabled -}}
dra-controller-tls
{{- end -}}
{{- end }}

{{/* Where the serving certificate's Secret is mounted. */}}
{{- define "dra-controller.tlsDir" -}}
/etc/dra-controller/tls
{{- end }}

{{/* The container's arguments: `run` and its flags. */}}
{{- define "dra-controller.args" -}}
- run
{{- if .Values.leaderElection.enabled }}
- --leader-elect
{{- end }}
{{- if .Values.metrics.secure }}
- --metrics-secure
{{- end }}
- --metrics-bind-address=:{{ .Values.metrics.port }}
- --health-probe-bind-address=:{{ .Values.probes.port }}
- --graceful-shutdown-timeout={{ .Values.gracefulShutdownTimeout }}
{{- if .Values.alertmanagerReceiver.enabled }}
- --alertmanager-webhook-bind-address=:{{ .Values.alertmanagerReceiver.port }}
{{- with .Values.alertmanagerReceiver.requiredLabels }}
- --alertmanager-required-labels={{ . }}
{{- end }}
{{- end }}
{{- if include "dra-controller.tlsSecretName" . }}
{{- if not .Values.metrics.secure }}
{{- fail "tls.secretName and tls.certManager.enabled need metrics.secure=true" }}
{{- end }}
- --metrics-cert-dir={{ include "dra-controller.tlsDir" . }}
{{- end }}
{{- if not .Values.features.deviceHealth }}
- --controllers=*,-device-health
{{- end }}
{{- if not .Values.features.kubeletHealthReports }}
- --kubelet-health-reports=false
{{- end }}
{{- if .Values.features.healthDryRun }}
- --health-dry-run
{{- end }}
{{- if .Values.features.repairExtendedResourceMapping }}
- --repair-extended-resource-mapping
{{- end }}
{{- if .Values.features.deleteLeakedClaims }}
- --delete-leaked-claims
{{- end }}
{{- range $name, $value := .Values.flags }}
- {{ printf "--%s=%v" $name $value | quote }}
{{- end }}
{{- range .Values.extraArgs }}
- {{ . | quote }}
{{- end }}
{{- end }}

{{/*
The objects of a manifest file of the kustomize install (files/ links to it,
so both installs have one source): Helm's labels added, Roles, RoleBindings
and the service-account subjects moved to the release namespace.
Call with (dict "root" $ "file" "files/NAME.yaml").
*/}}
{{- define "dra-controller.fileObjects" -}}
{{- $root := .root }}
{{- range $text := splitList "\n---\n" ($root.Files.Get .file) }}
{{- $object := fromYaml $text }}
{{- if not $object.kind }}{{ continue }}{{ end }}
{{- $meta := $object.metadata }}
{{- $_ := set $meta "labels" (merge (include "dra-controller.labels" $root | fromYaml) ($meta.labels | default dict)) }}
{{- if has $object.kind (list "Role" "RoleBinding") }}
{{- $_ := set $meta "namespace" $root.Release.Namespace }}
{{- end }}
{{- range $subject := $object.subjects | default list }}
{{- if eq $subject.kind "ServiceAccount" }}
{{- $_ := set $subject "namespace" $root.Release.Namespace }}
{{- end }}
{{- end }}
---
{{ toYaml $object }}
{{- end }}
{{- end }}
