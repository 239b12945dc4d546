#!/bin/sh
# Reference solution: a valid daily schedule, and a POSIX job that finds its own folder and fails loudly.
set -eu
cat > crontab <<'CRON'
# m  h  dom mon dow  command (cron runs it with sh, from $HOME, PATH=/usr/bin:/bin)
30 2 * * * sh jobs/nightly-report.sh
CRON
cat > jobs/nightly-report.sh <<'JOB'
#!/bin/sh
# Nightly sales report: order count and revenue from data/orders.csv into out/daily-report.txt.
# cron starts jobs in $HOME with a minimal PATH, under dash: work from the app folder, POSIX only,
# and fail loudly so that cron mails someone.
set -eu
cd "$(dirname "$0")/.."
if [ ! -f data/orders.csv ]; then
  echo "nightly-report: data/orders.csv is missing" >&2
  exit 1
fi
orders=$(tail -n +2 data/orders.csv | wc -l | tr -d ' ')
revenue=$(tail -n +2 data/orders.csv | awk -F, '{ sum += $3 } END { printf "%.2f", sum }')
mkdir -p out
printf 'orders: %s\nrevenue: %s\n' "$orders" "$revenue" > out/daily-report.txt.tmp
mv out/daily-report.txt.tmp out/daily-report.txt
JOB
