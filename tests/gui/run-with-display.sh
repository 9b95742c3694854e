#!/bin/sh
# Runs a GUI test binary with a display: the current one if set, else a
# virtual one from Xvfb. Without either the binary runs as is and its window
# tests skip.
#
# The X server picks its own free display number (-displayfd) and reports it
# once it accepts connections, so tests started side by side by `ctest -j`
# never race for one number (`xvfb-run -a` probes for a free number first and
# starts the server after, and two wrappers can take the same one).
if [ -n "$DISPLAY" ] || ! command -v Xvfb >/dev/null 2>&1; then
  exec "$@"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/swz-display.XXXXXX") || exit 1
Xvfb -displayfd 3 -screen 0 1920x1200x24 -nolisten tcp 3>"$dir/number" \
  >"$dir/server.log" 2>&1 &
server=$!
stop_server() {
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null
  rm -rf "$dir"
}
trap 'stop_server; exit 130' INT TERM

# The number arrives with a newline once the server is ready; 30 s at most.
tries=0
while ! grep -q '^[0-9][0-9]*$' "$dir/number" 2>/dev/null; do
  if ! kill -0 "$server" 2>/dev/null || [ "$tries" -ge 300 ]; then
    echo "run-with-display.sh: Xvfb did not start a display:" >&2
    cat "$dir/server.log" >&2
    stop_server
    exit 1
  fi
  sleep 0.1
  tries=$((tries + 1))
done

DISPLAY=":$(cat "$dir/number")" "$@"
status=$?
stop_server
exit "$status"
