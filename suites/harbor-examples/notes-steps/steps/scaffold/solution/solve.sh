#!/bin/bash
set -euo pipefail
echo '# Notes' > /app/notes.md
