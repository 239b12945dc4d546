#!/bin/bash
if [ "$(head -n 1 /app/notes.md 2>/dev/null)" = "# Notes" ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
