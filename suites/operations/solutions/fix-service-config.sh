#!/bin/sh
# Reference solution: three problems in config/inventory.conf, fixed in place; the note names them.
set -eu
cat > config/inventory.conf <<'CONF'
# inventory-api configuration: one `key = value` per line; `#` starts a comment.
service = inventory-api
port = 8080
workers = 4
log_level = info
data_dir = data
cache_ttl_seconds = 300
CONF
cat > reports/incident.md <<'NOTE'
# inventory-api did not start after the workers change

The service refused its configuration, one problem at a time (`node bin/healthcheck.mjs`):

1. `workers` was written in words (`four`); it must be a number. Now `4`.
2. The `log_level` line used `:` instead of `=`, so the file did not parse. Now `log_level = info`.
3. `data_dir` pointed to `./dat`, which does not exist (a typo). Now `data`.

Nothing else changed: port 8080, log level `info`, cache TTL 300 s. The health check passes.
NOTE
