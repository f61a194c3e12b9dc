#!/bin/sh
set -eu
exec /app/server --port=8080
