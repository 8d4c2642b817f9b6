#!/usr/bin/env bash
# Fuzzes the REST API from its own OpenAPI document with schemathesis (issue 18), on a local
# plane (`oam server`: embedded API server, controller, REST API) in a temporary OAM_HOME:
#   1. with the plane's bearer token: no 5xx, every answer's status, content type, headers and
#      body as the document declares, and each guarded operation refused without the token;
#   2. without a token, every write operation (POST/PUT/PATCH/DELETE): each one refused with 401.
# Bounded by example count, not wall time: FUZZ_EXAMPLES per operation (default 10), FUZZ_SEED
# (default fixed, so a CI run is reproducible). Needs the project built (npm ci/npm run build)
# and schemathesis' `st` on PATH (.ci/run installs the pinned version). Exit 1 on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${FUZZ_EXAMPLES:-10}"
seed="${FUZZ_SEED:-18}"
command -v st >/dev/null || { echo "fuzz-api: schemathesis (st) is not on PATH; pip install schemathesis" >&2; exit 2; }

OAM_HOME="$(mktemp -d)"
export OAM_HOME KUBECONFIG="$OAM_HOME/no-kubeconfig"
report_dir="${FUZZ_REPORT_DIR:-$OAM_HOME/report}"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$OAM_HOME"
}
trap cleanup EXIT

node bin/oam.js server --port 0 >"$OAM_HOME/server.out" 2>&1 &
server_pid=$!
# The plane writes plane.json with the REST API's URL once its caches have synced.
for _ in $(seq 1 600); do
  api_url="$(node -e 'try{const p=require(process.argv[1]);if(p.api)console.log(p.api.url)}catch{}' "$OAM_HOME/plane.json" 2>/dev/null || true)"
  [ -n "$api_url" ] && break
  kill -0 "$server_pid" 2>/dev/null || { echo "fuzz-api: oam server exited:" >&2; tail -n 30 "$OAM_HOME/server.out" >&2; exit 1; }
  sleep 0.5
done
[ -n "${api_url:-}" ] || { echo "fuzz-api: the REST API did not come up; the plane's output:" >&2; tail -n 30 "$OAM_HOME/server.out" >&2; exit 1; }
token="$(awk '/token:/{print $NF; exit}' "$OAM_HOME/api-tokens.yaml")"
# One Application to read, so the reads of an existing one are checked against the document too.
curl -sf -o /dev/null -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  --data '{"apiVersion":"core.oam.dev/v1beta1","kind":"Application","metadata":{"name":"fuzz-hello"},"spec":{"components":[{"name":"web","type":"webservice","properties":{"image":"nginx:1.27"}}]}}' \
  "$api_url/api/v1/namespaces/default/applications" || { echo "fuzz-api: could not create the Application fuzz-hello" >&2; exit 1; }
echo "== fuzzing $api_url from $api_url/api/openapi.json ($examples examples per operation, seed $seed)"

# Operations the fuzzer may run: everything but the SSE streams (they never end by design).
common=(
  --max-examples "$examples" --seed "$seed" --workers 1 --no-shrink
  --exclude-path-regex '/watch$' --request-timeout 60 --rate-limit 40/s
  --suppress-health-check too_slow,filter_too_much
)
status=0
# fuzz TITLE NAME COMMAND...: the run's full output goes to st-NAME.log; CI prints its summary line,
# and the whole log only on a finding.
fuzz() {
  local name=$1 log="$OAM_HOME/st-$2.log"
  shift 2
  if "$@" >"$log" 2>&1; then
    echo "   $name: passed ($(grep -E '^ *[0-9]+ generated' "$log" | tail -n 1 | sed 's/^ *//'))"
  else
    echo "   $name: FAILED; schemathesis printed:"
    cat "$log"
    status=1
  fi
}
fuzz "with the token" authenticated st --config-file scripts/fuzz-api.toml run "$api_url/api/openapi.json" "${common[@]}" \
  --header "Authorization: Bearer $token" \
  --phases examples,coverage,fuzzing \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,ignored_auth \
  --report junit --report-dir "$report_dir/authenticated"

# Without a token, every write must be refused (401).
fuzz "without a token, writes refused" anonymous \
  env SCHEMATHESIS_HOOKS=fuzz_api_hooks PYTHONPATH="$PWD/scripts" st run "$api_url/api/openapi.json" "${common[@]}" \
  --include-method POST --include-method PUT --include-method PATCH --include-method DELETE \
  --phases coverage,fuzzing \
  --checks refused_without_token \
  --report junit --report-dir "$report_dir/anonymous"
exit $status
