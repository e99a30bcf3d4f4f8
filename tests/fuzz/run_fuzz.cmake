# Runs the fuzzer for SECONDS in a fresh scratch corpus WORK (where it writes new inputs), seeded
# with the golden .binpb files (SEEDS) and the committed corpus CORPUS, which it only reads.
file(GLOB corpus_files ${CORPUS}/*)
if(NOT corpus_files)
  message(FATAL_ERROR "the fuzz corpus ${CORPUS} is missing or empty")
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(GLOB seeds ${SEEDS}/*.binpb)
file(COPY ${seeds} DESTINATION ${WORK})
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -max_len=4096 -rss_limit_mb=2048
          -print_final_stats=1 ${WORK} ${CORPUS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ctff_fuzz_read failed (exit ${rc}); the crashing input is in the current directory (crash-*)")
endif()
