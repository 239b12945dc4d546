#!/bin/sh
# Nightly sales report: order count and revenue from data/orders.csv into out/daily-report.txt.
if [[ -f data/orders.csv ]]; then
  echo "reading orders"
fi
orders=$(tail -n +2 data/orders.csv | wc -l)
revenue=$(tail -n +2 data/orders.csv | awk -F, '{ sum += $3 } END { printf "%.2f", sum }')
mkdir -p out
printf 'orders: %s\nrevenue: %s\n' "$orders" "$revenue" > out/daily-report.txt
echo "report written"
