#!/bin/bash
set -euo pipefail
sed -i 's/let i = 1;/let i = 0;/' sum.mjs
