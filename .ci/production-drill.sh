#!/usr/bin/env bash
# The artifact the Docker image ships, run as production runs it: `npm run build` once, the
# release step (`npm run db:migrate`, twice at once) and two instances with NODE_ENV=production
# on Postgres and the limit store (the Upstash bridge over Redis), Google being emulators/google
# (the staging recipe in docs/operations.md, Deploy). Instance A is started by `npm start` (the launcher:
# it seeds the demo key), instance B by `node .next/standalone/server.js` (the image's command).
# Then, under traffic: SIGTERM to B (every answer counted), and kill -9 to B (no answer received
# goes uncounted). Needs UPSTASH_REDIS_REST_URL/_TOKEN and a Postgres admin URL in PG_ADMIN_URL.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${DRILL_PORT_BASE:-3500}
work=$(mktemp -d)
pids=()
# The emulator runs in a process group of its own (setsid): the group goes, npx and its child alike.
cleanup() { for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
say() { echo "::: drill: $*"; }
# The build `npm start` made for the smoke test is the same artifact; made here when there is none.
[ -f .next/standalone/server.js ] || npm run build

# Named by the port base too: drills of other checkouts on the same Postgres keep their own.
db="sheetapi_drill_${base}"
psql "$PG_ADMIN_URL" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"
psql "$PG_ADMIN_URL" -qc "CREATE DATABASE $db"

# A service-account key of this run's own, uploaded to the emulator as one is uploaded to Google.
# Named per run. (The quota guard's windows in Redis are per Google identity, and every service
# account is the one identity "service-account" to it: runs sharing this Redis share them, which
# is why the quota is raised below.)
sa_email="sheetapi-drill-$(node -e 'console.log(require("node:crypto").randomBytes(4).toString("hex"))')@sheetapi-staging.iam.gserviceaccount.com"
node -e '
const { generateKeyPairSync } = require("node:crypto");
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const fs = require("node:fs");
fs.writeFileSync(process.argv[1] + "/sa.json", JSON.stringify({ client_email: process.argv[2], private_key: privateKey.export({ type: "pkcs8", format: "pem" }) }));
fs.writeFileSync(process.argv[1] + "/sa.pub", publicKey.export({ type: "spki", format: "pem" }));
' "$work" "$sa_email"

google="http://127.0.0.1:$((base + 9))"
setsid npx tsx emulators/google/main.ts --port $((base + 9)) --data "$work/google.json" --service-account "$sa_email" >"$work/google.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 60); do curl -fsS -o /dev/null "$google/__admin/health" 2>/dev/null && break; sleep 0.5; done
curl -fsS -o /dev/null -X POST -H 'content-type: application/json' \
  -d "$(node -e 'console.log(JSON.stringify({ email: process.argv[1], publicKey: require("node:fs").readFileSync(process.argv[2], "utf8") }))' "$sa_email" "$work/sa.pub")" \
  "$google/__admin/service-account-keys"

export NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 LOG_LEVEL=warn
export DATABASE_URL="${PG_ADMIN_URL%/*}/$db"
export AUTH_SECRET=drill-auth-secret-0123456789abcdef ENCRYPTION_KEY=$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("hex"))')
export GOOGLE_API_ROOT_URL="$google" GOOGLE_API_KEY=emulator-api-key GOOGLE_CLIENT_ID=sheetapi-local GOOGLE_CLIENT_SECRET=sheetapi-local-secret GOOGLE_CLOUD_PROJECT_NUMBER=100000000001
export GOOGLE_SERVICE_ACCOUNT_JSON="$(cat "$work/sa.json")"
# emulators/google has no quota of its own, and every restart here starts with an empty cache:
# the quota guard is tested elsewhere (lib/google/quota.test.ts), not by this drill.
export GOOGLE_QUOTA_PER_IDENTITY_MINUTE=1000000 GOOGLE_QUOTA_PER_PROJECT_MINUTE=1000000
# Payment is tested by its own suites against emulators/stripe; this drill takes none.
export BILLING=off
export DATA_DIR="$work/data" RATE_LIMIT_MULTIPLIER=1000 APP_URL="http://127.0.0.1:$((base + 1))"
key="shk_drill$(node -e 'console.log(require("node:crypto").randomBytes(16).toString("hex"))')"

say "release step: npm run db:migrate, twice at once on a fresh database"
npm run --silent db:migrate & m1=$!
npm run --silent db:migrate & m2=$!
wait $m1; wait $m2
[ "$(psql "$DATABASE_URL" -tAc 'select count(*) from drizzle.__drizzle_migrations')" = "$(node -e 'console.log(require("./db/migrations/meta/_journal.json").entries.length)')" ]

start_a() {
  APP_URL="http://127.0.0.1:$((base + 1))" PORT=$((base + 1)) HOST=127.0.0.1 DEMO_MODE=true DEMO_API_KEY="$key" \
    node lib/cli/start.mjs >>"$work/a.log" 2>&1 &
  a=$!; pids+=($a)
}
start_b() {
  APP_URL="http://127.0.0.1:$((base + 2))" PORT=$((base + 2)) HOSTNAME=127.0.0.1 node .next/standalone/server.js >>"$work/b.log" 2>&1 &
  b=$!; pids+=($b)
}
ready() {
  for _ in $(seq 1 120); do
    curl -fsS -o /dev/null "http://127.0.0.1:$1/health/ready" 2>/dev/null && return 0
    sleep 0.5
  done
  cat "$work/a.log" "$work/b.log"; say "FAILED: :$1/health/ready never answered 200"; exit 1
}
drill() {
  npx tsx .ci/stop-drill.ts --urls "http://127.0.0.1:$((base + 1)),http://127.0.0.1:$((base + 2))" \
    --path "/api/v1/1AcmeStoreDemoSpreadsheet0000000000000000001/Products?limit=5" --key "$key" --database "$DATABASE_URL" "$@"
}

say "two instances: A by npm start, B by node .next/standalone/server.js"
start_a; ready $((base + 1))
start_b; ready $((base + 2))
curl -fsS "http://127.0.0.1:$((base + 1))/health/ready"; echo
if grep -q "$key" "$work/a.log"; then say "FAILED: the demo key reached the production log"; exit 1; fi

say "SIGTERM to B under traffic, then every instance stopped: usage must equal the answers"
drill --victim "$b" --signal TERM --stop "$a"

say "kill -9 to B under traffic: no answer received may go uncounted"
start_a; ready $((base + 1))
start_b; ready $((base + 2))
drill --victim "$b" --signal KILL --stop "$a"
say "passed"
