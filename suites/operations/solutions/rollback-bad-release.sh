#!/bin/sh
# Reference solution: back to v1.4.2 (the last release deploy.log shows healthy), logged.
set -eu
echo v1.4.2 > releases/CURRENT
echo '2026-11-30T10:05:00Z rollback v1.5.0 -> v1.4.2 by=oncall reason="v1.5.0 fails at start-up: catalogue.json is missing from the release"' >> deploy.log
