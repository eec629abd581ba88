#!/bin/sh
# Applies the CRDs kovn serves and watches (AdminNetworkPolicy, BaselineAdminNetworkPolicy,
# UserDefinedNetwork, ClusterUserDefinedNetwork, ClusterNetworkConnect).
#
# The YAMLs live once, in k8s/src/main/resources/crds: the same files are packaged into the kovn
# jar and installed by LocalCluster on the real kube-apiserver the tests and the sandbox use, so what
# a cluster gets is what the tests ran against. They are referenced, not copied (a copy drifts). kustomize cannot reference
# files outside its root without --load-restrictor=LoadRestrictionsNone, hence this script.
#
# Usage: deploy/00-crds/apply-crds.sh [extra kubectl flags, e.g. --context prod]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
crds="$here/../../k8s/src/main/resources/crds"
[ -d "$crds" ] || { echo "CRD folder $crds not found (run from a kovn checkout)" >&2; exit 1; }
# server-side apply: the ANP/BANP CRDs are larger than the client-side apply annotation allows
exec kubectl apply --server-side --force-conflicts "$@" -f "$crds"
