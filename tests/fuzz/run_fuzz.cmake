# Runs the fuzzer for SECONDS from the seed files SEEDS/PATTERN (default *.binpb: the goldens), in
# a fresh scratch corpus WORK.
if(NOT PATTERN)
  set(PATTERN *.binpb)
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(GLOB seeds ${SEEDS}/${PATTERN})
file(COPY ${seeds} DESTINATION ${WORK})
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -max_len=4096 -rss_limit_mb=2048
          -print_final_stats=1 ${WORK}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  get_filename_component(fuzzer_name ${FUZZER} NAME)
  message(FATAL_ERROR "${fuzzer_name} failed (exit ${rc}); the crashing input is in the current directory (crash-*)")
endif()
