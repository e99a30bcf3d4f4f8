# ctest script for ctff-split --mergeable: a computation split into TFF's MergeableCompForm, its
# three parts and summary written; computations it refuses exit 1 with the rule, nothing written;
# bad input exits 2.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

include(${CMAKE_CURRENT_LIST_DIR}/../../tests/tool_run.cmake)
function(expect_text got want what)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "${what}: got\n${got}\nexpected\n${want}")
  endif()
endfunction()

# federated_aggregate (TFF's own case): up_to_merge aggregates with an identity report, merge is
# the aggregate's merge, after_merge reports and builds the result.
tool_run(${SPLIT} 0 out err --mergeable --rename ${GOLDENS}/aggregate.binpb ${WORK}/aggregate)
expect_text("${err}" "" "aggregate: stderr")
set(p "<state=int32@SERVER,values={int32}@CLIENTS>")
set(types
  "up_to_merge|(${p} -> <int32>@SERVER)"
  "merge|(<<int32>,<int32>> -> <int32>)"
  "after_merge|(<top_level_arg=${p},merge_result=<int32>@SERVER> -> <int32@SERVER,float32@SERVER>)")
set(summary "")
foreach(entry IN LISTS types)
  string(FIND "${entry}" "|" bar)
  string(SUBSTRING "${entry}" 0 ${bar} part)
  math(EXPR from "${bar} + 1")
  string(SUBSTRING "${entry}" ${from} -1 type)
  file(READ ${WORK}/aggregate/${part}.type.txt got)
  expect_text("${got}" "${type}\n" "aggregate: ${part}.type.txt")
  foreach(ext binpb compact.txt formatted.txt)
    if(NOT EXISTS ${WORK}/aggregate/${part}.${ext})
      message(FATAL_ERROR "aggregate: no ${part}.${ext}")
    endif()
  endforeach()
  string(LENGTH "${part}" len)
  math(EXPR pad "28 - ${len}")
  string(REPEAT " " ${pad} spaces)
  string(APPEND summary "${part}${spaces}: ${type}\n")
endforeach()
expect_text("${out}" "${summary}" "aggregate: printed summary")
file(READ ${WORK}/aggregate/summary.txt got)
expect_text("${got}" "${summary}" "aggregate: summary.txt")
file(READ ${WORK}/aggregate/up_to_merge.compact.txt got)
expect_text("${got}" "(_v1 -> (let _v2=federated_aggregate(<_v1[1],0,comp#bea41ec2,comp#eb891c95,(_v3 -> _v3)>),_v4=federated_zip_at_server(<_v2>) in _v4))\n"
  "aggregate: up_to_merge.compact.txt (renamed)")

# Computations it refuses: exit 1 with the rule, nothing written.
foreach(case
    "server_only|ctff-split: cannot split: no_aggregation: "
    "two_rounds|ctff-split: cannot split: aggregation_after_aggregation: "
    "analytics|ctff-split: cannot split: aggregation_not_mergeable: federated_min "
    "fedavg|ctff-split: cannot split: aggregation_not_mergeable: federated_weighted_mean "
    "secure_sum_max_input|ctff-split: cannot split: aggregation_not_mergeable: federated_secure_sum ")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 name)
  list(GET case 1 want)
  tool_run(${SPLIT} 1 out err --mergeable ${GOLDENS}/${name}.binpb ${WORK}/${name})
  string(FIND "${err}" "${want}" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "${name}: expected stderr to start with `${want}`; got\n${err}")
  endif()
  if(EXISTS ${WORK}/${name})
    message(FATAL_ERROR "${name}: refused, yet ${WORK}/${name} was made")
  endif()
endforeach()

# Bad input: exit 2.
file(WRITE ${WORK}/mars.textproto "type { placement {} } placement { uri: 'mars' }\n")
tool_run(${SPLIT} 2 out err --mergeable ${WORK}/mars.textproto ${WORK}/mars)
string(FIND "${err}" "not a valid computation: (top level): unknown placement URI `mars`" at)
if(at EQUAL -1)
  message(FATAL_ERROR "mars: ${err}")
endif()
