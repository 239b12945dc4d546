#!/bin/sh
# Reference solution: the report, with evidence quoted from the logs themselves.
set -eu
cat > reports/incident-2026-11-28.md <<'REPORT'
# Incident 2026-11-28: checkout 502s

## Summary

From 14:02 to 14:41 UTC most checkout requests failed with 502 Bad Gateway. The checkout service
could not get database connections: release v2.14.0 had shrunk its connection pool from 20 to 2.
Rolling back to v2.13.4 at 14:41 ended it.

## Timeline

- 14:00 UTC: v2.14.0 of checkout deployed; the deploy copied `DB_POOL_SIZE=2` from staging.
- 14:01 UTC: the pool is full (2 of 2 connections in use) and requests start to queue.
- 14:02 UTC: first 502 at the gateway; checkout requests time out after 30 s.
- 14:41 UTC: rollback to v2.13.4 (pool size 20); the gateway serves 200s again.

## Root cause

v2.14.0 set the database connection pool size to 2 (`DB_POOL_SIZE 20 -> 2`, copied from the staging
environment). Under afternoon traffic two connections were not enough: requests waited 30 s for a
connection and the gateway gave up. PostgreSQL itself was healthy (3 of 100 connections in use).

## Evidence

```
2026-11-28T14:00:10Z deploy service=checkout version=v2.14.0 by=ci result=ok change="payment retries; DB_POOL_SIZE 20 -> 2 (env copied from staging)"
2026-11-28T14:00:19Z checkout INFO  started v2.14.0 pid=4388 db_pool_size=2
2026-11-28T14:02:06Z checkout ERROR timeout acquiring a database connection after 30000 ms (pool size 2, 37 waiting) request=POST /api/checkout
2026-11-28T14:02:07Z gateway upstream=checkout:8080 POST /api/checkout status=502 upstream_time=30.001s error="upstream timed out"
```

The disk warnings in `system.log` (81-82% all day) are unrelated: they started before and went on after.

## Remediation

- Set `DB_POOL_SIZE` back to 20 in the production environment, and stop copying the staging
  environment into production deploys.
- Alert on "timeout acquiring a database connection" in checkout, and on pool saturation.
REPORT
