#!/bin/sh
# The smallest event-protocol harness: read the task, report one model call, answer.
task=$(cat)
if [ -n "$HARNESSEVAL_EVENTS" ]; then
  echo '{"type":"prompt","kind":"planned"}' >> "$HARNESSEVAL_EVENTS"
  echo '{"type":"agent_call","role":"developer","model":"gpt-4o-mini","tokens_in":12,"tokens_out":4,"cost_usd":0.0000042}' >> "$HARNESSEVAL_EVENTS"
  echo '{"type":"human","action":"approve","kind":"planned","minutes":1}' >> "$HARNESSEVAL_EVENTS"
fi
echo "echo: $task"
