#!/usr/bin/env python3
"""A harness in Python that reports to HarnessEval through the event protocol.

HarnessEval runs it once per task: the task input arrives on stdin, the answer goes to stdout, and
what happened inside (agent calls, operator prompts, human touchpoints, circuit breakers, tool
calls, cost) is appended as JSON lines to the file named by $HARNESSEVAL_EVENTS. The line format
is published in schemas/harness-events.schema.json.

This is a SIMULATION of a planner/developer/reviewer pipeline: it calls no model (so it needs no
API key). It answers small text tasks ("slugify: ...", "count words: ...", "reverse words: ...")
with plain Python and reports the events a real pipeline would, with token counts estimated from
the text and costs from the price below. Inputs with stray whitespace make the first draft fail
review, which shows the unplanned path: a rejection, a circuit breaker, an operator nudge, a
second developer pass and an unplanned approval.

Standard library only. Set EVENT_HARNESS_MALFORMED=1 to also append one line that is not JSON
(to see it reported in the run record's trace.malformed_events instead of failing the run).
"""

import json
import os
import re
import sys
import time

MODEL = "gpt-4o-mini"
PROVIDER = "openai"
# USD per million tokens (input, output); see src/instrument/pricing.ts for the "as of" date.
PRICE = (0.15, 0.60)
# Fixed prompt overhead per role (system prompt and instructions), in tokens.
OVERHEAD = {"planner": 900, "developer": 1400, "reviewer": 700}


def emit(event):
    """Appends one event line; without $HARNESSEVAL_EVENTS the harness still works, unreported."""
    path = os.environ.get("HARNESSEVAL_EVENTS")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as events:
        events.write(json.dumps(event) + "\n")


def estimate_tokens(text):
    return max(1, len(text) // 4)


def agent_call(role, prompt, response, started):
    tokens_in = OVERHEAD[role] + estimate_tokens(prompt)
    tokens_out = estimate_tokens(response) + 40
    cost = (tokens_in * PRICE[0] + tokens_out * PRICE[1]) / 1_000_000
    emit({
        "type": "agent_call",
        "role": role,
        "model": MODEL,
        "provider": PROVIDER,
        "tokens_in": tokens_in,
        "tokens_out": tokens_out,
        "cost_usd": round(cost, 8),
        "duration_seconds": round(time.monotonic() - started, 6),
    })


def solve(operation, text):
    """The 'developer': plain string work, timed and reported as a tool call."""
    started = time.monotonic()
    if operation == "slugify":
        answer = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    elif operation == "count words":
        answer = str(len(text.split()))
    elif operation == "reverse words":
        answer = " ".join(reversed(text.split()))
    else:
        answer = None
    emit({
        "type": "tool_call",
        "tool_name": "transform_text",
        "args": {"operation": operation},
        "result": answer,
        "status": "success" if answer is not None else "error",
        "duration": round(time.monotonic() - started, 6),
        "role": "developer",
    })
    return answer


def main():
    task = sys.stdin.read().rstrip("\n")
    operation, _, text = task.partition(":")
    operation = operation.strip().lower()
    text = text[1:] if text.startswith(" ") else text
    emit({"type": "prompt", "kind": "planned", "text": "kick-off: " + task[:80], "role": "planner"})

    started = time.monotonic()
    plan = f"1. apply '{operation}' 2. check the result 3. hand over"
    agent_call("planner", task, plan, started)

    # A sloppy first draft: the developer keeps the raw text when it has stray whitespace.
    messy = text != text.strip() or "  " in text
    started = time.monotonic()
    draft = solve(operation, text if not messy else text.strip() + " ")
    agent_call("developer", plan + task, draft or "", started)

    if draft is None:
        emit({"type": "circuit_breaker", "breaker": "CB3:unsupported-task",
              "trigger": f"no tool for '{operation}'", "resolution": "escalated to a human"})
        emit({"type": "human", "action": "answer", "kind": "unplanned", "minutes": 4,
              "note": "told the harness the task is out of scope"})
        print("unsupported task")
        return

    started = time.monotonic()
    first_pass_ok = not messy
    agent_call("reviewer", draft, "approve" if first_pass_ok else "reject: stray whitespace", started)
    emit({"type": "human", "action": "review", "kind": "planned", "minutes": 2})
    answer = draft
    if first_pass_ok:
        emit({"type": "human", "action": "approve", "kind": "planned", "minutes": 1})
    else:
        emit({"type": "human", "action": "reject", "kind": "planned", "minutes": 1,
              "note": "stray whitespace in the result"})
        emit({"type": "circuit_breaker", "breaker": "CB2:review-rejection",
              "trigger": "reviewer rejected the first draft", "resolution": "second developer pass"})
        emit({"type": "prompt", "kind": "unplanned", "text": "normalise whitespace first", "role": "developer"})
        started = time.monotonic()
        answer = solve(operation, " ".join(text.split()))
        agent_call("developer", draft, answer or "", started)
        emit({"type": "human", "action": "approve", "kind": "unplanned", "minutes": 3})

    # Cost outside the agent calls (here: a sandbox minute), reported on its own.
    emit({"type": "cost", "cost_usd": 0.0005, "role": "sandbox"})
    if os.environ.get("EVENT_HARNESS_MALFORMED") == "1":
        path = os.environ.get("HARNESSEVAL_EVENTS")
        if path:
            with open(path, "a", encoding="utf-8") as events:
                events.write("{this line is not JSON\n")
    print(answer)


if __name__ == "__main__":
    main()
