#!/bin/bash
expected=$(printf '# Notes\n- buy milk\n- call Ada')
if [ "$(cat /app/notes.md 2>/dev/null)" = "$expected" ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
