# Runs the fuzzer for SECONDS from the golden .binpb files, in a fresh scratch corpus WORK.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(GLOB seeds ${SEEDS}/*.binpb)
file(COPY ${seeds} DESTINATION ${WORK})
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -max_len=4096 -rss_limit_mb=2048
          -print_final_stats=1 ${WORK}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ctff_fuzz_read failed (exit ${rc}); the crashing input is in the current directory (crash-*)")
endif()
