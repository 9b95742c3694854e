# expect.cmake: run a command, check its exit status exactly and what it printed.
#
#   cmake -DSTATUS=2 -DSTDERR_REGEX=<regex> -P expect.cmake -- <command> [args...]
#   cmake -DSTATUS=0 -DSTDOUT_REGEX=<regex> -P expect.cmake -- <command> [args...]
#   cmake -DSTATUS=2 -DSTDERR_REGEX=<regex> -DJSON_ERROR=ON -P expect.cmake -- <command> --json [args...]
#
# With a nonzero STATUS the command must print exactly one line on stderr, matching
# STDERR_REGEX, and nothing on stdout; with JSON_ERROR, stdout is instead one JSON object
# whose "error" is that line's message (the line ends ": <error>"). With STATUS 0, stdout
# must match STDOUT_REGEX and stderr must be empty.
set(cmd)
set(after_dashes OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 0 ${last})
  if(after_dashes)
    list(APPEND cmd "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(after_dashes ON)
  endif()
endforeach()
if(NOT cmd)
  message(FATAL_ERROR "expect.cmake: no command after --")
endif()

execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
string(JOIN " " shown ${cmd})
if(NOT "${rc}" STREQUAL "${STATUS}")
  message(FATAL_ERROR "${shown}\nexit status ${rc}, expected ${STATUS}\nstdout: ${out}\nstderr: ${err}")
endif()

if(STATUS EQUAL 0)
  if(NOT "${err}" STREQUAL "")
    message(FATAL_ERROR "${shown}\nunexpected stderr: ${err}")
  endif()
  if(DEFINED STDOUT_REGEX AND NOT "${out}" MATCHES "${STDOUT_REGEX}")
    message(FATAL_ERROR "${shown}\nstdout does not match '${STDOUT_REGEX}':\n${out}")
  endif()
  return()
endif()

if(JSON_ERROR)
  string(JSON type ERROR_VARIABLE json_problem TYPE "${out}")
  string(REGEX MATCHALL "(^|\n){" objects "${out}")  # the parser reads the first of several
  list(LENGTH objects object_count)
  if(json_problem OR NOT type STREQUAL "OBJECT" OR NOT object_count EQUAL 1)
    message(FATAL_ERROR "${shown}\nstdout is not one JSON object (${json_problem}): ${out}")
  endif()
  string(JSON error ERROR_VARIABLE json_problem GET "${out}" error)
  string(LENGTH "${err}" err_length)
  string(LENGTH ": ${error}\n" tail_length)
  math(EXPR tail_start "${err_length} - ${tail_length}")
  if(tail_start GREATER_EQUAL 0)
    string(SUBSTRING "${err}" ${tail_start} -1 err_tail)
  endif()
  if(json_problem OR error STREQUAL "" OR NOT "${err_tail}" STREQUAL ": ${error}\n")
    message(FATAL_ERROR "${shown}\nstdout's \"error\" is not the stderr line's message:\nstdout: ${out}\nstderr: ${err}")
  endif()
elseif(NOT "${out}" STREQUAL "")
  message(FATAL_ERROR "${shown}\nunexpected stdout on failure: ${out}")
endif()
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines lines)
if(NOT lines EQUAL 1 OR NOT "${err}" MATCHES "\n$")
  message(FATAL_ERROR "${shown}\nexpected one line on stderr, got ${lines}:\n${err}")
endif()
if(DEFINED STDERR_REGEX AND NOT "${err}" MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "${shown}\nstderr does not match '${STDERR_REGEX}': ${err}")
endif()
