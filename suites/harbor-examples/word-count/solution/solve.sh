#!/bin/bash
set -euo pipefail
wc -w < poem.txt | tr -d ' ' > count.txt
