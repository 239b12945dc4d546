#!/bin/bash
# The expected count is computed here, from the poem the agent was given.
expected=$(wc -w < /app/poem.txt | tr -d ' ')
actual=$(tr -d ' \n' < /app/count.txt 2>/dev/null)
if [ "$actual" = "$expected" ]; then
  echo 1 > /logs/verifier/reward.txt
else
  echo "expected $expected, got '$actual'"
  echo 0 > /logs/verifier/reward.txt
fi
