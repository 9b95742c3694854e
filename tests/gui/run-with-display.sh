#!/bin/sh
# Runs a GUI test binary with a display: the current one if set, else a
# virtual one from xvfb-run. Without either the binary runs as is and its
# window tests skip.
if [ -n "$DISPLAY" ] || ! command -v xvfb-run >/dev/null 2>&1; then
  exec "$@"
fi
exec xvfb-run -a -s "-screen 0 1920x1200x24" "$@"
