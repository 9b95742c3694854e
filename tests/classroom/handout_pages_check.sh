#!/usr/bin/env bash
# handout_pages_check.sh SWIZZLE LESSON OUT: the lesson's student handout and teacher's key printed
# to PDF by a headless Chromium, as a teacher would print them; every page must start with a step,
# the lesson's title, the quiz or one of its questions (a step or a question split over two pages
# starts a page with its tail: a claim alone on a page), and the handout must take at most a page a
# step plus four for the quiz. Exit 77 (skipped) without chromium or pdftotext.
set -euo pipefail
swizzle=$1 lesson=$2 out=$3
for tool in chromium pdfinfo pdftotext; do
  command -v "$tool" >/dev/null || { echo "no $tool: skipped"; exit 77; }
done
rm -rf "$out" && mkdir -p "$out"
"$swizzle" lesson export "$lesson" --handout -o "$out" >/dev/null
steps=$("$swizzle" lesson list --json | python3 -c "import json,sys; print(next(l['steps'] for l in json.load(sys.stdin)['lessons'] if l['name']=='$lesson'))")
status=0
for part in handout key; do
  html=$out/$lesson-$part.html pdf=$out/$lesson-$part.pdf
  timeout 300 chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer --print-to-pdf="$pdf" "$html" >/dev/null 2>&1 || true
  [ -s "$pdf" ] || { echo "$pdf: not printed"; exit 1; }
  pages=$(pdfinfo "$pdf" | awk '/^Pages:/{print $2}')
  for ((i = 1; i <= pages; i++)); do
    first=$(pdftotext -f "$i" -l "$i" "$pdf" - | grep -v '^[[:space:]]*$' | head -1 || true)
    if ! [[ $first =~ ^(Step\ [0-9]+\.\ |Quiz:\ |Plan:\ |[0-9]+\.\ ) ]] && [ "$i" -ne 1 ]; then
      echo "$lesson-$part.pdf: page $i of $pages starts inside a step or a question: $first"
      status=1
    fi
  done
  echo "$lesson-$part.pdf: $pages pages for $steps steps"
  if [ "$part" = handout ] && [ "$pages" -gt $((steps + 6)) ]; then
    echo "$lesson-$part.pdf: $pages pages, more than a page a step and six for the contents and the quiz"
    status=1
  fi
done
[ $status -eq 0 ] && echo "ok: every page starts a step or a question"
exit $status
