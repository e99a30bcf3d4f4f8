# ctest script: Python's FedAvg round (tests/forms/goldens/fedavg.binpb, two TensorFlow blocks) run
# by ctff-run with examples/plugin/fedavg_plugin.cpp bound (-DRUN, -DPLUGIN, -DCOMP, -DDATA; -DPYTHON
# optional). The expected line, testdata/fedavg_expected.txt, was written by
# testdata/fedavg_expected.py (standard library only, float32 emulated op by op, no ctff) from
# testdata/fedavg_arg.json. It is compared exactly: the plugin and ctff's weighted means compute in
# float32 in a fixed order (clients in order, at any --threads), which the script repeats. With
# -DPYTHON, the script is run too and must still print that line.
set(failures 0)

# check(<exit> <expected first line> <args>...): stdout on success, else stderr's first line;
# the other stream empty.
function(check expect_rc want)
  execute_process(COMMAND ${RUN} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect_rc EQUAL 0)
    set(got "${out}")
    set(other "${err}")
  else()
    set(got "${err}")
    set(other "${out}")
  endif()
  string(REGEX REPLACE "\n.*" "" got "${got}")
  if(NOT rc STREQUAL "${expect_rc}" OR NOT got STREQUAL "${want}" OR NOT other STREQUAL "")
    message(SEND_ERROR "ctff-run ${ARGN}: exit ${rc} (expected ${expect_rc})\n  got:      ${got}\n"
                       "  expected: ${want}\nstdout: ${out}\nstderr: ${err}")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
  endif()
endfunction()

set(ARG ${DATA}/fedavg_arg.json)
file(STRINGS ${DATA}/fedavg_expected.txt expected LIMIT_COUNT 1)

if(PYTHON)
  execute_process(COMMAND ${PYTHON} ${DATA}/fedavg_expected.py ${ARG}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "${expected}")
    message(SEND_ERROR "fedavg_expected.py no longer prints fedavg_expected.txt:\n  ${out}\n${err}")
    math(EXPR failures "${failures} + 1")
  endif()
endif()

# Both blocks bound by the typed declarations (their keys are those of Python's round).
execute_process(COMMAND ${RUN} ${COMP} --list-bindings --bind ${PLUGIN} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
set(model "<weights=float32[2],bias=float32>")
set(want "comp#866b42f5 tensorflow (<${model},<x=float32[2],y=float32>*> -> <delta=${model},weight=float32,loss=float32>) bound by ${PLUGIN}
comp#dcd63ab8 tensorflow (<${model},${model}> -> ${model}) bound by ${PLUGIN}
")
if(NOT rc EQUAL 0 OR NOT out STREQUAL want)
  message(SEND_ERROR "ctff-run --list-bindings: exit ${rc}\n  got:\n${out}  expected:\n${want}")
  math(EXPR failures "${failures} + 1")
endif()

foreach(threads 1 2)
  check(0 "${expected}" ${COMP} --bind ${PLUGIN} --threads ${threads} ${ARG})
endforeach()
# Without the plugin: the client update (the first block the round calls) is unbound.
check(1 "ctff: execution error at lambda.result.block.local[2](fc_fedavg_symbol_2).call.argument.struct[0]: the tensorflow computation comp#866b42f5 has no binding (executor::bind)"
  ${COMP} ${ARG})

if(failures GREATER 0)
  message(FATAL_ERROR "fedavg plugin: ${failures} checks failed")
endif()
message(STATUS "fedavg plugin: the round's result is ${expected}")
