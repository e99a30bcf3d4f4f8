# ctest script for ctff-split: every round TFF converts (tests/forms/goldens/NAME.summary.txt),
# split with --rename, gives TFF's parts byte for byte and TFF's summary; rounds TFF refuses exit
# 1 with ctff's rule; bad input exits 2 with a message and writes nothing.
# -DINSTALLED=ON (consumer.split): one round only, with the installed executable.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

include(${CMAKE_CURRENT_LIST_DIR}/../../tests/tool_run.cmake)
# run(<expected exit> <stdout var> <stderr var> [INPUT <file>] args...)
function(run expect_rc out_var err_var)
  tool_run(${SPLIT} ${expect_rc} out err ${ARGN})
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()

function(expect_same_file got want)
  file(SHA256 ${got} got_hash)
  file(SHA256 ${want} want_hash)
  if(NOT got_hash STREQUAL want_hash)
    file(READ ${got} got_text LIMIT 2000)
    file(READ ${want} want_text LIMIT 2000)
    message(FATAL_ERROR "${got} differs from ${want}:\n${got_text}\nexpected\n${want_text}")
  endif()
endfunction()
function(expect_text got want what)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "${what}: got\n${got}\nexpected\n${want}")
  endif()
endfunction()

set(parts server_prepare server_to_client_broadcast client_work client_to_server_aggregation server_result)

# A converted round: the five parts (renamed) and the summary, written and printed, are TFF's.
function(expect_tff_parts name)
  set(out_dir ${WORK}/${name})
  run(0 out err --rename ${GOLDENS}/${name}.binpb ${out_dir})
  expect_text("${err}" "" "${name}: stderr")
  file(READ ${GOLDENS}/${name}.summary.txt summary)
  expect_text("${out}" "${summary}" "${name}: printed summary")
  expect_same_file(${out_dir}/summary.txt ${GOLDENS}/${name}.summary.txt)
  foreach(part IN LISTS parts)
    foreach(ext binpb compact.txt type.txt)
      expect_same_file(${out_dir}/${part}.${ext} ${GOLDENS}/${name}.${part}.${ext})
    endforeach()
    if(NOT EXISTS ${out_dir}/${part}.formatted.txt)
      message(FATAL_ERROR "${name}: no ${part}.formatted.txt")
    endif()
  endforeach()
endfunction()

if(INSTALLED)
  expect_tff_parts(fedavg)
  return()
endif()

file(GLOB summaries ${GOLDENS}/*.summary.txt)
set(converted 0)
foreach(summary IN LISTS summaries)
  get_filename_component(name ${summary} NAME)
  string(REGEX REPLACE "\\.summary\\.txt$" "" name "${name}")
  expect_tff_parts(${name})
  math(EXPR converted "${converted} + 1")
endforeach()
if(converted LESS 12)
  message(FATAL_ERROR "only ${converted} converted rounds in ${GOLDENS}")
endif()

# Without --rename: the splitter's own names, the same summary; standard input as COMP.
run(0 out err INPUT ${GOLDENS}/fedavg.binpb - ${WORK}/fedavg_raw)
file(READ ${GOLDENS}/fedavg.summary.txt summary)
expect_text("${out}" "${summary}" "fedavg from standard input")
file(READ ${WORK}/fedavg_raw/client_work.compact.txt raw)
if(raw MATCHES "_v1")
  message(FATAL_ERROR "without --rename the parts keep the splitter's names; got ${raw}")
endif()

# federated_aggregate, which TFF refuses, splits (ctff's extension), and its parts pass the form
# validator, which ctff-split applies before it writes anything.
run(0 out err ${GOLDENS}/aggregate.binpb ${WORK}/aggregate)
# So does a federated_select whose keys are broadcast from the server (another extension).
run(0 out err ${GOLDENS}/select_keys_broadcast.binpb ${WORK}/select_keys_broadcast)

# Rounds TFF refuses: exit 1 with the rule, nothing written.
foreach(case
    "two_rounds|ctff-split: cannot split: broadcast_after_aggregation: "
    "one_parameter|ctff-split: cannot split: round_parameters: "
    "state_at_clients|ctff-split: cannot split: server_only at server_prepare.lambda.result."
    "select_keys_from_clients|ctff-split: cannot split: unavailable_inputs")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 name)
  list(GET case 1 want)
  run(1 out err ${GOLDENS}/${name}.binpb ${WORK}/${name})
  string(FIND "${err}" "${want}" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "${name}: expected stderr to start with `${want}`; got\n${err}")
  endif()
  expect_text("${out}" "" "${name}: stdout")
  if(EXISTS ${WORK}/${name})
    message(FATAL_ERROR "${name}: refused, yet ${WORK}/${name} was made")
  endif()
endforeach()

# Bad input: exit 2 with a message.
function(expect_bad want)
  run(2 out err ${ARGN})
  string(FIND "${err}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "ctff-split ${ARGN}: expected `${want}` in stderr; got\n${err}")
  endif()
endfunction()
file(WRITE ${WORK}/garbage.binpb "this is not a Computation\n")
expect_bad("not a Computation" ${WORK}/garbage.binpb ${WORK}/garbage)
file(READ ${GOLDENS}/fedavg.binpb hex HEX)
string(SUBSTRING "${hex}" 0 60 cut)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" esc "${cut}")
execute_process(COMMAND printf "${esc}" OUTPUT_FILE ${WORK}/truncated.binpb)
expect_bad("not a Computation: as binary, ctff: cannot read the Computation" ${WORK}/truncated.binpb ${WORK}/truncated)
expect_bad("cannot open ${WORK}/missing.binpb" ${WORK}/missing.binpb ${WORK}/missing)
# Read, but refused by the checker.
file(WRITE ${WORK}/mars.textproto "type { placement {} } placement { uri: 'mars' }\n")
expect_bad("ctff-split: ${WORK}/mars.textproto: not a valid computation: (top level): unknown placement URI `mars`"
  ${WORK}/mars.textproto ${WORK}/mars)
# OUTDIR a file.
file(WRITE ${WORK}/a_file "")
expect_bad("cannot make the directory ${WORK}/a_file" ${GOLDENS}/fedavg.binpb ${WORK}/a_file)
expect_bad("cannot make the directory ${WORK}/a_file/sub" ${GOLDENS}/fedavg.binpb ${WORK}/a_file/sub)
foreach(name garbage truncated missing mars)
  if(EXISTS ${WORK}/${name})
    message(FATAL_ERROR "${name}: bad input, yet ${WORK}/${name} was made")
  endif()
endforeach()
# Usage.
expect_bad("unknown option --bogus" --bogus ${GOLDENS}/fedavg.binpb ${WORK}/x)
expect_bad("expected COMP and OUTDIR" ${GOLDENS}/fedavg.binpb)
expect_bad("usage: ctff-split")
run(0 out err --help)
string(FIND "${out}" "usage: ctff-split [--rename] [--mergeable] COMP OUTDIR" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "--help: ${out}")
endif()
