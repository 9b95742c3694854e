#!/bin/sh
# bounded_input.sh SWIZZLE CASE DATA: one input that crashed or ran away, made here (too large or too odd
# to commit); the run must end with status 2 and one line on stderr naming the problem.
swizzle=$1
case_name=$2
data=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
brackets() { python3 -c "import sys; n = int(sys.argv[1]); sys.stdout.write(sys.argv[2] + '[' * n + ']' * n + sys.argv[3])" "$@"; }
json=no
case $case_name in
  nested-attribute)  # 50,000 brackets deep in an alias of a module: exit 139 before
    { brackets 50000 '#blocked = #ttg.blocked<{order = ' '}>'; echo; echo 'module attributes {"ttg.num-warps" = 4 : i32} {'; echo '}'; } > "$dir/deep.ttgir"
    set -- audit "$dir/deep.ttgir"; expect='deep.ttgir:1:12: expected an attribute (the attribute at column 278: nested more than 256 deep)' ;;
  nested-json)
    brackets 50000 '{"shape": ' '}' > "$dir/deep.json"
    set -- analyze --shared "$dir/deep.json"; expect='deep.json: nested more than 256 deep' ;;
  invalid-utf8-json)  # exit 134 before (nlohmann type_error.316 while writing the error)
    set -- analyze --preset "$(printf '\377')" --json; json=yes; expect="'$(printf '\357\277\275')'" ;;
  audit-cap)  # a sparse file past the kernel cap: refused before it is read
    truncate -s 1025M "$dir/huge.ttgir"
    set -- audit "$dir/huge.ttgir"; expect="huge.ttgir' is larger than 1073741824 bytes" ;;
  audit-stdin-cycle)
    set -- audit -; expect='<stdin>:2: #a refers to itself (#a -> #a): a cycle of aliases' ;;
  *) echo "bounded_input.sh: no case '$case_name'" >&2; exit 1 ;;
esac
if [ "$case_name" = audit-stdin-cycle ]; then
  "$swizzle" "$@" < "$data/alias_cycle_slice.ttgir" > "$dir/out" 2> "$dir/err"
else
  "$swizzle" "$@" > "$dir/out" 2> "$dir/err"
fi
rc=$?
printf 'status %s\nstdout: %s\nstderr: %s\n' "$rc" "$(head -c 2000 "$dir/out")" "$(head -c 2000 "$dir/err")"
[ "$rc" -eq 2 ] || exit 1
[ "$(wc -l < "$dir/err")" -eq 1 ] || exit 1
grep -qF -- "$expect" "$dir/err" || exit 1
if [ $json = yes ]; then
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); assert "error" in j, j' "$dir/out" || exit 1
else
  [ ! -s "$dir/out" ] || exit 1
fi
