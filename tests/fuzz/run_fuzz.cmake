# Runs the fuzzer for SECONDS in a fresh scratch corpus WORK (where it writes new inputs), seeded
# with the golden .binpb files (SEEDS, if given; with PREFIX_BYTE, each behind that byte) and the
# committed corpus CORPUS, which it only reads.
if(NOT DEFINED MAX_LEN)  # the longest input libFuzzer makes (fuzz_forms: whole forms)
  set(MAX_LEN 4096)
endif()
file(GLOB corpus_files ${CORPUS}/*)
if(NOT corpus_files)
  message(FATAL_ERROR "the fuzz corpus ${CORPUS} is missing or empty")
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(seeds)
if(DEFINED SEEDS)
  file(GLOB seeds ${SEEDS}/*.binpb)
endif()
if(DEFINED PREFIX_BYTE)  # fuzz_run: each seed behind one byte (the client count)
  string(ASCII ${PREFIX_BYTE} prefix)
  foreach(seed IN LISTS seeds)
    get_filename_component(name ${seed} NAME)
    # file(WRITE) cannot write arbitrary bytes from a string: copy with a one-byte head instead.
    file(WRITE ${WORK}/${name}.head "${prefix}")
    execute_process(COMMAND sh -c "cat '${WORK}/${name}.head' '${seed}' > '${WORK}/${name}'")
    file(REMOVE ${WORK}/${name}.head)
  endforeach()
elseif(seeds)
  file(COPY ${seeds} DESTINATION ${WORK})
endif()
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -max_len=${MAX_LEN} -rss_limit_mb=2048
          -print_final_stats=1 ${WORK} ${CORPUS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (exit ${rc}); the crashing input is in the current directory (crash-*)")
endif()
