#!/bin/bash
set -euo pipefail
sed 's/^/- /' /app/todo.txt >> /app/notes.md
