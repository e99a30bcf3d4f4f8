# ctest script: the FedAvg rounds of examples/distributed_fedavg.cpp (on workers) and
# examples/simulate_fedavg.cpp (local) print the same `round` and `model` lines; the distributed
# run also says every client update ran on its workers.
#   cmake -DLOCAL=<simulate_fedavg> -DDISTRIBUTED=<distributed_fedavg> -DWORK=<dir> -P same_rounds.cmake
foreach(which LOCAL DISTRIBUTED)
  execute_process(COMMAND ${${which}} ${WORK}/same_rounds_${which}.binpb
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "${${which}}: exit ${rc}\n${out}${err}")
  endif()
  string(REGEX MATCHALL "(round|model) [^\n]*" ${which}_lines "${out}")
  set(${which}_out "${out}")
endforeach()
list(LENGTH LOCAL_lines n)
if(NOT n EQUAL 11)
  message(FATAL_ERROR "simulate_fedavg printed ${n} round and model lines, not 11:\n${LOCAL_out}")
endif()
if(NOT LOCAL_lines STREQUAL DISTRIBUTED_lines)
  message(FATAL_ERROR "the distributed rounds differ from the local ones\nlocal:\n${LOCAL_out}\n"
    "distributed:\n${DISTRIBUTED_out}")
endif()
foreach(line "workers   127\\.0\\.0\\.1:[0-9]+ 127\\.0\\.0\\.1:[0-9]+ 127\\.0\\.0\\.1:[0-9]+"
             "client updates on the workers 1000, on the controller 0"
             "the same as the local run in every round, bit for bit")
  if(NOT DISTRIBUTED_out MATCHES "(^|\n)${line}\n")
    message(FATAL_ERROR "distributed_fedavg did not print `${line}`:\n${DISTRIBUTED_out}")
  endif()
endforeach()
message(STATUS "the same 10 rounds and model, locally and on 3 workers")
