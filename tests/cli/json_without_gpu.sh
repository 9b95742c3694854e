#!/bin/sh
# json_without_gpu.sh SWIZZLE COMMAND [ARGS...]: COMMAND --json prints one JSON object on every exit.
# Status 3 (no GPU here): {"available": false, "reason": ..., "error": "no GPU available: ..."} and
# one line on stderr; status 0 or 1 (it ran): the report, which names the device.
swizzle=$1
shift
err=$(mktemp)
out=$("$swizzle" "$@" --json 2>"$err")
rc=$?
printf 'status %s\nstdout: %s\nstderr: %s\n' "$rc" "$out" "$(cat "$err")"
lines=$(wc -l <"$err")
rm -f "$err"
case $rc in
  3) [ "$lines" -eq 1 ] &&
       printf '%s' "$out" | grep -q '^  "available": false' &&
       printf '%s' "$out" | grep -q '^  "error": "no GPU available: ' &&
       printf '%s' "$out" | grep -q '^  "reason": ' &&
       [ "$(printf '%s\n' "$out" | grep -c '^{')" -eq 1 ] ;;
  0 | 1) printf '%s' "$out" | grep -q '"device"' ;;
  *) exit 1 ;;
esac
