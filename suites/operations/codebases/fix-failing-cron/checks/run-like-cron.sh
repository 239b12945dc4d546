#!/bin/sh
# Runs the crontab's command for the nightly report the way cron does: from another directory,
# with PATH=/usr/bin:/bin and nothing else in the environment, under /bin/sh. With `missing`,
# runs it on a copy of this folder without data/orders.csv and expects a loud failure.
# Exit 0 when the job behaves, 1 otherwise.
set -u
app=$(pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
command=$(grep -v '^[[:space:]]*#' crontab | grep 'jobs/nightly-report.sh' | head -n 1 | awk '{ for (i = 6; i <= NF; i++) printf "%s%s", $i, (i < NF ? " " : "") }')
if [ -z "$command" ]; then echo "FAIL no crontab entry runs jobs/nightly-report.sh"; exit 1; fi
# cron runs the command line from $HOME; the job's path is relative to the app folder.
command=$(printf '%s' "$command" | sed "s#jobs/nightly-report.sh#$app/jobs/nightly-report.sh#")
if [ "${1:-}" = "missing" ]; then
  cp -R "$app" "$scratch/app"
  rm -f "$scratch/app/data/orders.csv" "$scratch/app/out/daily-report.txt"
  command=$(printf '%s' "$command" | sed "s#$app#$scratch/app#g")
  mkdir "$scratch/home"
  if (cd "$scratch/home" && env -i PATH=/usr/bin:/bin HOME="$scratch/home" sh -c "$command") >/dev/null 2>&1; then
    echo "FAIL with no data/orders.csv the job still exited 0: cron would report nothing"; exit 1
  fi
  if [ -e "$scratch/app/out/daily-report.txt" ]; then echo "FAIL with no data the job still wrote a report"; exit 1; fi
  echo "ok with no data the job fails loudly and writes no report"; exit 0
fi
rm -f "$app/out/daily-report.txt"
mkdir "$scratch/home"
if ! (cd "$scratch/home" && env -i PATH=/usr/bin:/bin HOME="$scratch/home" sh -c "$command") >"$scratch/log" 2>&1; then
  echo "FAIL the job exited non-zero under cron:"; cat "$scratch/log"; exit 1
fi
if grep -q -e 'not found' -e 'No such file' -e 'cannot open' "$scratch/log"; then echo "FAIL the job printed errors under cron:"; cat "$scratch/log"; exit 1; fi
expected=$(printf 'orders: 5\nrevenue: 312.75')
if [ "$(cat "$app/out/daily-report.txt" 2>/dev/null)" != "$expected" ]; then
  echo "FAIL out/daily-report.txt is not the expected report after a cron-style run"; exit 1
fi
echo "ok the job works the way cron runs it"
