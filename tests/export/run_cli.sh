#!/bin/sh
# Runs a command, prints its output (stdout and stderr) and then "exit=<status>",
# so one PASS_REGULAR_EXPRESSION checks both the message and the exit status.
"$@" 2>&1
echo "exit=$?"
