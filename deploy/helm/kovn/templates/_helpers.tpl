{{/* Labels every object carries (not managed-by: the same output is deploy/'s plain manifests). */}}
{{- define "kovn.labels" -}}
app.kubernetes.io/part-of: kovn
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}

{{/* An image reference: repository, then @digest or :tag (default: the chart's appVersion). Call with (list $ .Values.image.x). */}}
{{- define "kovn.image" -}}
{{- $root := index . 0 -}}
{{- $img := index . 1 -}}
{{- if $img.digest -}}
{{ $img.repository }}@{{ $img.digest }}
{{- else -}}
{{ $img.repository }}:{{ $img.tag | default $root.Chart.AppVersion }}
{{- end -}}
{{- end }}

{{/* The java command line of a kovn JVM: java, its options, the image's class path, the main class. Call with (list jvmOptions mainClass). */}}
{{- define "kovn.javaCommand" -}}
{{- $opts := index . 0 -}}
{{- $main := index . 1 -}}
{{- concat (list "java") $opts (list "-cp" "/opt/kovn/lib/*" $main) | toJson -}}
{{- end }}

{{/* The flags every kovn process takes. */}}
{{- define "kovn.logArgs" -}}
- --log-level={{ .Values.logLevel }}
- --log-format={{ .Values.logFormat }}
{{- end }}

{{/* The feature switches, on the processes where the controllers live (node, cluster manager); the cluster
manager alone has --enable-connecting-networks (a node acts only on what it annotated). */}}
{{- define "kovn.featureArgs" -}}
- --enable-admin-network-policy={{ .Values.features.adminNetworkPolicy }}
- --enable-network-segmentation={{ .Values.features.networkSegmentation }}
{{- end }}

{{/* Resources in flow style (scripts and benchmarks read the limits of the rendered manifests line by line). */}}
{{- define "kovn.resources" -}}
{{- with .requests }}
requests: {{ . | toJson | replace "\"" "" | replace ":" ": " | replace "," ", " }}
{{- end }}
{{- with .limits }}
limits: {{ . | toJson | replace "\"" "" | replace ":" ": " | replace "," ", " }}
{{- end }}
{{- end }}

{{/* The webhook's Secret name. */}}
{{- define "kovn.identityTlsSecret" -}}
{{- .Values.identity.tls.existingSecret | default "kovn-identity-tls" -}}
{{- end }}

{{/* What values.schema.json cannot say. */}}
{{- define "kovn.validate" -}}
{{- if or (empty .Values.clusterSubnets) (gt (len .Values.clusterSubnets) 2) }}
{{- fail "clusterSubnets: one or two (one per IP family) <cidr>/<per-node prefix length>" }}
{{- end }}
{{- if and .Values.identity.tls.certManager.enabled .Values.identity.tls.existingSecret }}
{{- fail "identity.tls: set either certManager.enabled or existingSecret, not both" }}
{{- end }}
{{- end }}
