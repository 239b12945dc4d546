#!/bin/sh
# Reference solution: the retention policy, applied by the dates in the file names.
set -eu
for day in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23; do
  rm -f "var/log/app/app-2026-11-$day.log"
done
rm -f var/tmp/upload-2026-11-20-*.part var/tmp/upload-2026-11-25-*.part var/tmp/upload-2026-11-28-*.part
