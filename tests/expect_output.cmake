# ctest runner for a program whose output is checked: runs the command given after `--` and passes
# only if it exits with status 0, writes nothing to standard error (a sanitizer report, a leak, a
# warning) and its standard output has consecutive lines that match LINE_0, LINE_1, ... whole (each
# is a CMake regular expression, anchored at both ends of its line). WHERE says where those lines
# must be:
#   anywhere  (default) somewhere in the output
#   end       they are the last lines of the output
#   all       they are the whole output
#
#   cmake -DLINE_0=<regex> [-DLINE_1=<regex> ...] [-DWHERE=end|all] -P expect_output.cmake
#         -- <command> [<argument>...]
cmake_minimum_required(VERSION 3.20)

set(command)
set(after_separator OFF)
math(EXPR last_arg "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last_arg})
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_separator ON)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "expect_output.cmake: no command after `--`")
endif()
if(NOT DEFINED LINE_0)
  message(FATAL_ERROR "expect_output.cmake: no expected line (LINE_0)")
endif()
if(NOT DEFINED WHERE)
  set(WHERE anywhere)
endif()
if(NOT WHERE MATCHES "^(anywhere|end|all)$")
  message(FATAL_ERROR "expect_output.cmake: WHERE is `${WHERE}`, not anywhere, end or all")
endif()

execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REPLACE ";" " " shown "${command}")

function(fail reason)
  message(FATAL_ERROR "${reason}\ncommand: ${shown}\nexit status: ${rc}\n"
    "--- standard output\n${out}--- standard error\n${err}---")
endfunction()

if(NOT rc STREQUAL "0")
  fail("the command did not exit with status 0")
endif()
if(NOT err STREQUAL "")
  fail("the command wrote to standard error")
endif()

# The output's lines: got_0 ... got_<n-1> (no final empty line after the last newline).
set(n 0)
set(rest "${out}")
while(NOT rest STREQUAL "")
  string(FIND "${rest}" "\n" at)
  if(at EQUAL -1)
    set(got_${n} "${rest}")
    set(rest "")
  else()
    string(SUBSTRING "${rest}" 0 ${at} got_${n})
    math(EXPR next "${at} + 1")
    string(SUBSTRING "${rest}" ${next} -1 rest)
  endif()
  math(EXPR n "${n} + 1")
endwhile()

set(m 0)
while(DEFINED LINE_${m})
  math(EXPR m "${m} + 1")
endwhile()

# The first line the expected block may start at, and the last.
math(EXPR last_start "${n} - ${m}")
if(WHERE STREQUAL "anywhere")
  set(first_start 0)
elseif(WHERE STREQUAL "end")
  set(first_start ${last_start})
else()
  set(first_start 0)
  if(NOT n EQUAL m)
    set(last_start -1)
  endif()
endif()

set(found OFF)
if(last_start GREATER_EQUAL first_start)
  foreach(start RANGE ${first_start} ${last_start})
    set(all_match ON)
    math(EXPR last_line "${m} - 1")
    foreach(j RANGE ${last_line})
      math(EXPR k "${start} + ${j}")
      if(NOT got_${k} MATCHES "^(${LINE_${j}})$")
        set(all_match OFF)
        break()
      endif()
    endforeach()
    if(all_match)
      set(found ON)
      break()
    endif()
  endforeach()
endif()

if(NOT found)
  set(wanted "")
  math(EXPR last_line "${m} - 1")
  foreach(j RANGE ${last_line})
    string(APPEND wanted "  ${LINE_${j}}\n")
  endforeach()
  fail("standard output does not have lines matching (${WHERE}):\n${wanted}")
endif()
message("${out}")
