#!/bin/sh
# Applies the CRDs kovn serves and watches (AdminNetworkPolicy, BaselineAdminNetworkPolicy,
# UserDefinedNetwork, ClusterUserDefinedNetwork, ClusterNetworkConnect), for an install from deploy/'s
# plain manifests (`helm install` applies them itself).
#
# The YAMLs live once, in the chart (deploy/helm/kovn/crds): the k8s module packages the same files into
# the kovn jar, where LocalCluster installs them on the real kube-apiserver the tests and the sandbox use,
# so what a cluster gets is what the tests ran against.
#
# Usage: deploy/00-crds/apply-crds.sh [extra kubectl flags, e.g. --context prod]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
crds="$here/../helm/kovn/crds"
[ -d "$crds" ] || { echo "CRD folder $crds not found (run from a kovn checkout)" >&2; exit 1; }
# server-side apply: the ANP/BANP CRDs are larger than the client-side apply annotation allows
exec kubectl apply --server-side --force-conflicts "$@" -f "$crds"
