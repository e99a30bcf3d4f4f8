# ctest script for ctff-run. Every expected result is computed by hand from the golden's
# formatted form (tests/goldens/*.formatted.txt) or the crafted computation (testdata/), never
# by running ctff-run. Each case checks the exit status and the output line exactly: stdout on
# success (stderr empty), else the first line of stderr (stdout empty).
#
# With -DWORKERS=HOST:PORT,... (tests/remote/workers_e2e.py, which starts the workers), every
# case that succeeds (exit 0) runs again with `--workers ${WORKERS}` appended and must print the
# same line: the per-client work of those runs goes to the workers, and their results are the
# ones computed here by hand. The failing cases (exit 1 and 2) are left out then (their messages
# are those of a local run; the remote failures are tested by workers_e2e.py). With
# -DAGGREGATE_ON_WORKERS=ON they run with --aggregate-on-workers too: the hand-computed lines
# hold there as well (their float sums are exact in any grouping).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

set(failures 0)
set(cases 0)

# check(<exit> <expected line> [INPUT <file>] ARGS <args>...)
function(check expect_rc want)
  cmake_parse_arguments(PARSE_ARGV 2 C "" "INPUT" "ARGS")
  if(DEFINED WORKERS)
    if(NOT expect_rc EQUAL 0)
      return()
    endif()
    list(APPEND C_ARGS --workers ${WORKERS})
    if(AGGREGATE_ON_WORKERS)
      list(APPEND C_ARGS --aggregate-on-workers)
    endif()
  endif()
  set(input_opt)
  if(C_INPUT)
    set(input_opt INPUT_FILE ${C_INPUT})
  endif()
  execute_process(COMMAND ${RUN} ${C_ARGS} ${input_opt}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  math(EXPR n "${cases} + 1")
  set(cases ${n} PARENT_SCOPE)
  if(expect_rc EQUAL 0)
    set(got "${out}")
    set(other "${err}")
  else()
    set(got "${err}")
    set(other "${out}")
  endif()
  string(FIND "${got}" "\n" eol)
  if(eol GREATER -1)
    string(SUBSTRING "${got}" 0 ${eol} got)
  endif()
  if(NOT rc STREQUAL "${expect_rc}" OR NOT got STREQUAL "${want}" OR NOT other STREQUAL "")
    message(SEND_ERROR "ctff-run ${C_ARGS}: exit ${rc} (expected ${expect_rc})\n  got:      ${got}\n"
                       "  expected: ${want}\nstdout: ${out}\nstderr: ${err}")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
  endif()
endfunction()

# arg(<name> <json>): writes WORK/<name>.json.
function(arg name json)
  file(WRITE ${WORK}/${name}.json "${json}\n")
endfunction()

set(G ${GOLDENS})
set(D ${DATA})

# --- Goldens, at small N, binary and text format --------------------------------------------
# add_one_local: (int32 -> int32), x + 1 (int32 wraps).
arg(n41 [=[41]=])
arg(int32_max [=[2147483647]=])
foreach(comp ${G}/add_one_local.binpb ${G}/add_one_local.textproto)
  check(0 [=[42]=] ARGS ${comp} ${WORK}/n41.json)
  check(0 [=[-2147483648]=] ARGS ${comp} ${WORK}/int32_max.json)
endforeach()
check(0 [=[42]=] INPUT ${WORK}/n41.json ARGS ${G}/add_one_local.binpb -)

# federated_values: ( -> <int32@SERVER,float32@CLIENTS>), <10, 2.5 at all clients>.
foreach(comp ${G}/federated_values.binpb ${G}/federated_values.textproto)
  check(0 [=[[10,2.5]]=] ARGS ${comp})
  check(0 [=[[10,2.5]]=] ARGS ${comp} --clients 3)
endforeach()

# named_params: <total=mean(beta), first=alpha, last=gamma>; keys in any order on input.
arg(named [=[{"alpha":3,"beta":[1,2,4.5],"gamma":7}]=])
arg(named_shuffled [=[{"gamma":-7,"beta":[0.25],"alpha":-1}]=])
arg(named_no_clients [=[{"alpha":3,"beta":[],"gamma":7}]=])
foreach(comp ${G}/named_params.binpb ${G}/named_params.textproto)
  check(0 [=[{"total":2.5,"first":3,"last":7}]=] ARGS ${comp} ${WORK}/named.json)
  check(0 [=[{"total":0.25,"first":-1,"last":-7}]=] ARGS ${comp} ${WORK}/named_shuffled.json)
  # N = 0: the mean is NaN.
  check(0 [=[{"total":"nan","first":3,"last":7}]=] ARGS ${comp} ${WORK}/named_no_clients.json)
endforeach()
check(0 [=[{"total":2.5,"first":3,"last":7}]=] ARGS ${G}/named_params.binpb --clients 3 ${WORK}/named.json)

# simple_broadcast_map_sum: (int32@SERVER -> int32@SERVER), N * (x + 1).
arg(n5 [=[5]=])
foreach(comp ${G}/simple_broadcast_map_sum.binpb ${G}/simple_broadcast_map_sum.textproto)
  check(0 [=[18]=] ARGS ${comp} --clients 3 ${WORK}/n5.json)
  check(0 [=[6]=] ARGS ${comp} --clients=1 ${WORK}/n5.json)
  check(0 [=[0]=] ARGS ${comp} --clients 0 ${WORK}/n5.json)
  # Neither given nor inferable: N = 0.
  check(0 [=[0]=] ARGS ${comp} ${WORK}/n5.json)
endforeach()
foreach(threads 1 2 3)
  check(0 [=[60]=] ARGS ${G}/simple_broadcast_map_sum.binpb --threads ${threads} --clients 10 ${WORK}/n5.json)
endforeach()

# sum_clients: ({int32}@CLIENTS -> int32@SERVER), N from the list.
arg(three [=[[1,2,3]]=])
arg(none [=[[]]=])
arg(wraps [=[[2147483647,1]]=])
foreach(comp ${G}/sum_clients.binpb ${G}/sum_clients.textproto)
  check(0 [=[6]=] ARGS ${comp} ${WORK}/three.json)
  check(0 [=[0]=] ARGS ${comp} ${WORK}/none.json)
  check(0 [=[-2147483648]=] ARGS ${comp} ${WORK}/wraps.json)
endforeach()
check(0 [=[6]=] ARGS ${G}/sum_clients.binpb --clients 3 ${WORK}/three.json)
check(0 [=[6]=] INPUT ${WORK}/three.json ARGS ${G}/sum_clients.binpb -)
# --subrounds K: the MergeableCompForm in subrounds of K clients (1 + 2 + 3, however cut).
check(0 [=[6]=] ARGS ${G}/sum_clients.binpb --subrounds 2 ${WORK}/three.json)
check(0 [=[6]=] ARGS ${G}/sum_clients.binpb --subrounds=1 ${WORK}/three.json)
check(2 [=[ctff-run: --subrounds takes a number of clients of at least 1, not `0`]=]
  ARGS ${G}/sum_clients.binpb --subrounds 0 ${WORK}/three.json)

# zip_unnamed: <a={int32}@CLIENTS,b={float32}@CLIENTS> -> {<int32,float32>}@CLIENTS.
arg(zip [=[{"a":[1,2],"b":[0.5,1.5]}]=])
arg(zip_empty [=[{"b":[],"a":[]}]=])
foreach(comp ${G}/zip_unnamed.binpb ${G}/zip_unnamed.textproto)
  check(0 [=[[[1,0.5],[2,1.5]]]=] ARGS ${comp} ${WORK}/zip.json)
  check(0 [=[[]]=] ARGS ${comp} ${WORK}/zip_empty.json)
endforeach()

# --- Every kind of value in and out (testdata/identity.textproto: x -> x) --------------------
arg(identity [=[{"i8":-128,"u64":18446744073709551615,"i64":[[9007199254740993,-1],[0,2]],"f16":[0.1,65504,"-inf"],"bf":1.5,"f32":[0.1,-0.0,1e20,"nan"],"f64":1e-7,"c64":[[1,2],[0.5,"inf"]],"s":"h\u00e9\"llo","b":[true,false],"u":[7,{}],"seq":[1,2,3],"r":[[1,2]],"srv":5,"cl":[1.5,2],"ae":9}]=])
# float16 0.1 is 1638/16384; float32 0.1 and 1e20 widened to double; ints exact beyond 2^53.
set(identity_out [=[{"i8":-128,"u64":18446744073709551615,"i64":[[9007199254740993,-1],[0,2]],"f16":[0.0999755859375,65504.0,"-inf"],"bf":1.5,"f32":[0.10000000149011612,-0.0,1.0000000200408773e+20,"nan"],"f64":1e-07,"c64":[[1.0,2.0],[0.5,"inf"]],"s":"hé\"llo","b":[true,false],"u":[7,[]],"seq":[1,2,3],"r":[[1.0,2.0]],"srv":5,"cl":[1.5,2.0],"ae":9}]=])
check(0 "${identity_out}" ARGS ${D}/identity.textproto ${WORK}/identity.json)
check(0 "${identity_out}" ARGS ${D}/identity.textproto --clients 2 ${WORK}/identity.json)
check(2 "ctff-run: --subrounds: ${D}/identity.textproto has no MergeableCompForm: ctff: no_aggregation: the computation aggregates nothing, so there is nothing to merge"
  ARGS ${D}/identity.textproto --subrounds 2 ${WORK}/identity.json)

# --- numpy's files: ARG as .npz / .npy, --output (testdata/numpy, made by numpy: make_files.py) --
# The identity argument above as arrays named by their paths: stored, deflated, big-endian with
# a 'U' string and a Fortran-order i64; the same line as the JSON argument gives.
set(N ${D}/numpy)
foreach(f identity identity_compressed identity_swapped)
  check(0 "${identity_out}" ARGS ${D}/identity.textproto ${N}/${f}.npz)
endforeach()
check(0 "${identity_out}" INPUT ${N}/identity.npz ARGS ${D}/identity.textproto -)
# A lone .npy is the array `arg`; format versions 1.0, 2.0, 3.0; clients from its first dimension.
foreach(v 1 2 3)
  check(0 [=[6]=] ARGS ${G}/sum_clients.binpb ${N}/sum_v${v}.npy)
endforeach()
check(0 [=[{"total":2.5,"first":3,"last":7}]=] ARGS ${G}/named_params.binpb ${N}/named.npz)
# One value per client (sequences of batches): client_data[i][j].x.
check(0 [=[{"loss":2.3125,"accuracy":0.75,"num_examples":4,"max_loss":2.5}]=]
  ARGS ${G}/python/benchmark_programs/fedeval_round.binpb --bind ${EXAMPLE_PLUGIN} ${N}/fedeval.npz)
# --output: nothing on stdout; .json holds the line; .npz and .npy as numpy reads them (checked
# with numpy by ctff_run.numpy_output when a python3 with numpy is found).
if(NOT DEFINED WORKERS)
  check(0 "" ARGS ${D}/identity.textproto ${N}/identity.npz --output ${WORK}/identity_out.json)
  file(READ ${WORK}/identity_out.json got)
  if(NOT got STREQUAL "${identity_out}\n")
    message(SEND_ERROR "--output identity_out.json: ${got}")
    math(EXPR failures "${failures} + 1")
  endif()
  check(0 "" ARGS ${D}/identity.textproto ${WORK}/identity.json --output=${WORK}/identity_out.npz)
  check(0 "" ARGS ${G}/sum_clients.binpb ${N}/sum_v1.npy --output ${WORK}/sum_out.npy)
  check(0 "" ARGS ${G}/zip_unnamed.binpb ${WORK}/zip.json --output ${WORK}/zip_out.npz)
endif()
# Arrays that do not fit: the path named (a missing, extra, wrong-dtype, wrong-shape array;
# client counts), and files that are not numpy's (the file and member named).
check(2 [=[ctff: bad argument at arg.gamma: no array of this name (the type is int32)]=]
  ARGS ${G}/named_params.binpb ${N}/bad_missing.npz)
check(2 [=[ctff: bad argument at arg.delta: an array that the type <alpha=int32@SERVER,beta={float32}@CLIENTS,gamma=int32> has no place for ('<i4' (int32) of shape ())]=]
  ARGS ${G}/named_params.binpb ${N}/bad_extra.npz)
check(2 [=[ctff: bad argument at arg.alpha: an array of '<i8' (int64) of shape () where the type is int32]=]
  ARGS ${G}/named_params.binpb ${N}/bad_dtype.npz)
check(2 [=[ctff: bad argument at arg.gamma: an array of '<i4' (int32) of shape (1,) where the type is int32]=]
  ARGS ${G}/named_params.binpb ${N}/bad_shape.npz)
check(2 [=[ctff: bad argument at arg.beta: a 0-d array where the clients' values need a leading client dimension (the type is {float32}@CLIENTS)]=]
  ARGS ${G}/named_params.binpb ${N}/bad_scalar_clients.npz)
check(2 [=[ctff: bad argument at arg.b: an array of 1 client values (its first dimension), but the number of clients is 2]=]
  ARGS ${G}/zip_unnamed.binpb ${N}/bad_clients.npz)
check(2 [=[ctff: bad argument at arg: an array of 3 client values (its first dimension), but the number of clients is 2]=]
  ARGS ${G}/sum_clients.binpb --clients 2 ${N}/sum_v1.npy)
check(2 "ctff: bad argument at arg: ${N}/bad_object.npy: the dtype '|O' has no ctff dtype (an object array: pickled Python objects are not read)"
  ARGS ${G}/sum_clients.binpb ${N}/bad_object.npy)
check(2 "ctff: bad argument at arg: ${N}/bad_structured.npy: bad .npy header: structured arrays (a list as 'descr') are not read: one dtype per array"
  ARGS ${G}/sum_clients.binpb ${N}/bad_structured.npy)
check(2 "ctff: bad argument at arg: ${N}/bad_short.npy: the shape (3,) needs 12 bytes of elements, the file has 11"
  ARGS ${G}/sum_clients.binpb ${N}/bad_short.npy)
check(2 "ctff: bad argument at arg: ${N}/bad_truncated.npz: not a ZIP archive (no end of central directory record)"
  ARGS ${D}/identity.textproto ${N}/bad_truncated.npz)
check(2 "ctff: bad argument at arg: ${N}/bad_crc.npz: member `arg.i8.npy`: CRC-32 mismatch (a damaged member)"
  ARGS ${D}/identity.textproto ${N}/bad_crc.npz)
check(2 [=[ctff-run: --output takes a file ending in .json, .npz or .npy, not `out.txt`]=]
  ARGS ${G}/sum_clients.binpb --output out.txt ${N}/sum_v1.npy)
check(2 [=[ctff-run: --output needs a value]=] ARGS ${G}/sum_clients.binpb ${N}/sum_v1.npy --output)
check(2 "ctff-run: --output ${WORK}/all.npy: the result is 18 arrays, not one: write it as .npz"
  ARGS ${D}/identity.textproto ${N}/identity.npz --output ${WORK}/all.npy)

# --- Bad input: exit 2, the message names the path -------------------------------------------
# Argument JSON that does not parse, or is too deep.
arg(cut [=[{"alpha":]=])
check(2 [=[ctff: bad argument at arg: not JSON: parse error at line 2, column 1: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal]=]
  ARGS ${G}/named_params.binpb ${WORK}/cut.json)
string(REPEAT "[" 600 deep)
arg(deep "${deep}")
check(2 [=[ctff: bad argument at arg: JSON nested deeper than 512 lists and objects]=]
  ARGS ${G}/sum_clients.binpb ${WORK}/deep.json)
arg(huge_float [=[1e400]=])
check(2 [=[ctff: bad argument at arg: not JSON: number overflow parsing '1e400']=]
  ARGS ${D}/identity.textproto ${WORK}/huge_float.json)
# Values that do not fit the parameter type, at every depth.
arg(bad_member [=[{"alpha":3,"beta":[1,"x"],"gamma":7}]=])
check(2 [=[ctff: bad argument at arg.beta[1]: expected a float32 number (or "nan", "inf", "-inf"), got "x"]=]
  ARGS ${G}/named_params.binpb ${WORK}/bad_member.json)
arg(missing_key [=[{"alpha":3,"beta":[1]}]=])
check(2 [=[ctff: bad argument at arg: missing key `gamma` (the type is <alpha=int32@SERVER,beta={float32}@CLIENTS,gamma=int32>)]=]
  ARGS ${G}/named_params.binpb ${WORK}/missing_key.json)
arg(extra_key [=[{"alpha":3,"beta":[1],"gamma":7,"delta":0}]=])
check(2 [=[ctff: bad argument at arg: unexpected key `delta` (the type is <alpha=int32@SERVER,beta={float32}@CLIENTS,gamma=int32>)]=]
  ARGS ${G}/named_params.binpb ${WORK}/extra_key.json)
arg(list_for_named [=[[3,[1],7]]=])
check(2 [=[ctff: bad argument at arg: expected an object with the keys of <alpha=int32@SERVER,beta={float32}@CLIENTS,gamma=int32>, got a list]=]
  ARGS ${G}/named_params.binpb ${WORK}/list_for_named.json)
arg(float_for_int [=[{"alpha":3.0,"beta":[1],"gamma":7}]=])
check(2 [=[ctff: bad argument at arg.alpha: expected an integer in the range of int32 [-2147483648, 2147483647], got 3.0]=]
  ARGS ${G}/named_params.binpb ${WORK}/float_for_int.json)
arg(int32_over [=[2147483648]=])
check(2 [=[ctff: bad argument at arg: expected an integer in the range of int32 [-2147483648, 2147483647], got 2147483648]=]
  ARGS ${G}/add_one_local.binpb ${WORK}/int32_over.json)
arg(string_for_int [=["1"]=])
check(2 [=[ctff: bad argument at arg: expected an integer in the range of int32 [-2147483648, 2147483647], got "1"]=]
  ARGS ${G}/add_one_local.binpb ${WORK}/string_for_int.json)
arg(scalar_for_clients [=[7]=])
check(2 [=[ctff: bad argument at arg: expected a list of client values ({int32}@CLIENTS), got 7]=]
  ARGS ${G}/sum_clients.binpb ${WORK}/scalar_for_clients.json)
arg(bad_client [=[[1,2,null]]=])
check(2 [=[ctff: bad argument at arg[2]: expected an integer in the range of int32 [-2147483648, 2147483647], got null]=]
  ARGS ${G}/sum_clients.binpb ${WORK}/bad_client.json)
arg(zip_short [=[[1,2]]=])
check(2 [=[ctff: bad argument at arg: expected an object with the keys of <a={int32}@CLIENTS,b={float32}@CLIENTS>, got a list]=]
  ARGS ${G}/zip_unnamed.binpb ${WORK}/zip_short.json)
# Shapes: a fixed dimension, a ragged `?` dimension, a wrong rank, a bad complex element.
string(REPLACE [=["i64":[[9007199254740993,-1],[0,2]]]=] [=["i64":[[1,2]]]=] bad "${identity_out}")
arg(bad_dim "${bad}")
check(2 [=[ctff: bad argument at arg.i64: expected a list of 2 (dimension 0 of int64[2,?]), got a list of 1]=]
  ARGS ${D}/identity.textproto ${WORK}/bad_dim.json)
string(REPLACE [=["i64":[[9007199254740993,-1],[0,2]]]=] [=["i64":[[1,2],[3]]]=] bad "${identity_out}")
arg(ragged "${bad}")
check(2 [=[ctff: bad argument at arg.i64[1]: a list of 1 where its neighbours have 2 (tensors are rectangular)]=]
  ARGS ${D}/identity.textproto ${WORK}/ragged.json)
string(REPLACE [=["r":[[1.0,2.0]]]=] [=["r":[[1.0,2.0],[3.0,[4.0]]]]=] bad "${identity_out}")
arg(rank "${bad}")
check(2 [=[ctff: bad argument at arg.r[1][1]: expected a float32 number (or "nan", "inf", "-inf"), got a list]=]
  ARGS ${D}/identity.textproto ${WORK}/rank.json)
string(REPLACE [=["c64":[[1.0,2.0],[0.5,"inf"]]]=] [=["c64":[[1.0,2.0],0.5]]=] bad "${identity_out}")
arg(complex "${bad}")
check(2 [=[ctff: bad argument at arg.c64[1]: expected [re, im] (complex64), got 0.5]=]
  ARGS ${D}/identity.textproto ${WORK}/complex.json)
string(REPLACE [=["u64":18446744073709551615]=] [=["u64":-1]=] bad "${identity_out}")
arg(negative_unsigned "${bad}")
check(2 [=[ctff: bad argument at arg.u64: expected an integer in the range of uint64 [0, 18446744073709551615], got -1]=]
  ARGS ${D}/identity.textproto ${WORK}/negative_unsigned.json)
string(REPLACE [=["u":[7,[]]]=] [=["u":[7,[1]]]=] bad "${identity_out}")
arg(nonempty_unit "${bad}")
check(2 [=[ctff: bad argument at arg.u[1]: expected [] (the empty struct <>), got a list]=]
  ARGS ${D}/identity.textproto ${WORK}/nonempty_unit.json)
# A function parameter has no JSON form.
arg(one [=[1]=])
check(2 [=[ctff: bad argument at arg: a function (( -> int32)) cannot be given as JSON]=]
  ARGS ${D}/function_param.textproto ${WORK}/one.json)
# Client counts that disagree: two lists, or a list and --clients.
arg(zip_disagree [=[{"a":[1,2],"b":[0.5]}]=])
check(2 [=[ctff: bad argument at arg.b: a list of 1 client values, but the number of clients is 2]=]
  ARGS ${G}/zip_unnamed.binpb ${WORK}/zip_disagree.json)
check(2 [=[ctff: bad argument at arg: a list of 3 client values, but the number of clients is 2]=]
  ARGS ${G}/sum_clients.binpb --clients 2 ${WORK}/three.json)
check(2 [=[ctff: bad argument at arg.cl: a list of 2 client values, but the number of clients is 3]=]
  ARGS ${D}/identity.textproto --clients 3 ${WORK}/identity.json)
# An argument for a computation without parameter, none for one with.
check(2 [=[ctff: bad argument at arg: the computation takes no argument]=]
  ARGS ${G}/federated_values.binpb ${WORK}/n5.json)
check(2 [=[ctff: bad argument at arg: the computation takes an argument of type int32@SERVER; give it as ARG.json (or - for standard input)]=]
  ARGS ${G}/simple_broadcast_map_sum.binpb --clients 3)
# Unreadable or invalid COMP.
check(2 "ctff-run: cannot open ${WORK}/missing.binpb" ARGS ${WORK}/missing.binpb)
file(WRITE ${WORK}/bad.textproto "lambda { result { nonsense: 1 } }\n")
check(2 "ctff-run: ${WORK}/bad.textproto: not a Computation in text format: line 1, column 27: Message type \"federated_language.Computation\" has no field named \"nonsense\"."
  ARGS ${WORK}/bad.textproto)
file(WRITE ${WORK}/mars.textproto "type { placement {} } placement { uri: 'mars' }\n")
check(2 "ctff-run: ${WORK}/mars.textproto: not a valid Computation:" ARGS ${WORK}/mars.textproto)
# Bad usage.
check(2 [=[usage: ctff-run COMP [--clients N] [--threads T] [--progress] [--bind PLUGIN.so]... [--workers HOST:PORT,...]]=] ARGS)
check(2 [=[ctff-run: unknown option --bogus]=] ARGS --bogus ${G}/sum_clients.binpb)
check(2 [=[ctff-run: --clients takes a number of clients from 0 to 16777216, not `-1`]=]
  ARGS ${G}/sum_clients.binpb --clients=-1 ${WORK}/three.json)
check(2 [=[ctff-run: --clients takes a number of clients from 0 to 16777216, not `many`]=]
  ARGS ${G}/sum_clients.binpb --clients many ${WORK}/three.json)
check(2 [=[ctff-run: --clients takes a number of clients from 0 to 16777216, not `99999999999`]=]
  ARGS ${G}/sum_clients.binpb --clients 99999999999 ${WORK}/three.json)
check(2 [=[ctff-run: --threads takes a number of threads from 0 (the hardware's) to 4096, not `2x`]=]
  ARGS ${G}/sum_clients.binpb --threads 2x ${WORK}/three.json)
check(2 [=[ctff-run: --threads needs a value]=] ARGS ${G}/sum_clients.binpb --threads)
check(2 [=[ctff-run: --deadline takes a number of seconds from 0.001 to 604800, not `soon`]=]
  ARGS ${G}/sum_clients.binpb --workers 127.0.0.1:1 --deadline soon ${WORK}/three.json)
check(2 [=[ctff-run: --deadline takes a number of seconds from 0.001 to 604800, not `0`]=]
  ARGS ${G}/sum_clients.binpb --workers 127.0.0.1:1 --deadline=0 ${WORK}/three.json)
check(2 [=[ctff-run: --deadline, --slice-deadline and --retries are about workers: they need --workers]=]
  ARGS ${G}/sum_clients.binpb --deadline 5 ${WORK}/three.json)
check(2 [=[ctff-run: --deadline, --slice-deadline and --retries are about workers: they need --workers]=]
  ARGS ${G}/sum_clients.binpb --retries 2 ${WORK}/three.json)
check(2 [=[ctff-run: --retries takes a number from 0 to 1000, not `many`]=]
  ARGS ${G}/sum_clients.binpb --workers 127.0.0.1:1 --retries many ${WORK}/three.json)
check(2 [=[ctff-run: --slice-deadline takes a number of seconds from 0.001 to 604800, not `-1`]=]
  ARGS ${G}/sum_clients.binpb --workers 127.0.0.1:1 --slice-deadline=-1 ${WORK}/three.json)
check(2 [=[ctff-run: --aggregate-on-workers aggregates on the workers: it needs --workers]=]
  ARGS ${G}/sum_clients.binpb --aggregate-on-workers ${WORK}/three.json)
# ctff-worker's (TFF's) spelling is the same flag.
check(2 [=[ctff-run: --aggregate-on-workers aggregates on the workers: it needs --workers]=]
  ARGS ${G}/sum_clients.binpb --aggregate_on_workers ${WORK}/three.json)
check(2 [=[ctff-run: one COMP and one ARG only]=] ARGS ${G}/sum_clients.binpb ${WORK}/three.json ${WORK}/three.json)
check(2 [=[ctff-run: COMP and ARG cannot both be standard input]=] ARGS - -)

# --- Execution errors: exit 1 -----------------------------------------------------------------
# A result without JSON form.
check(1 [=[ctff: execution error at (top level): a function value has no JSON form]=]
  ARGS ${D}/function_result.textproto)
# Integer division: truncation, INT_MIN / -1 wraps, division by zero fails.
arg(div_7_2 [=[[-7,2]]=])
arg(div_min [=[[-2147483648,-1]]=])
arg(div_zero [=[[7,0]]=])
check(0 [=[-3]=] ARGS ${D}/divide.textproto ${WORK}/div_7_2.json)
check(0 [=[-2147483648]=] ARGS ${D}/divide.textproto ${WORK}/div_min.json)
check(1 [=[ctff: execution error at lambda.result: integer division by zero]=] ARGS ${D}/divide.textproto ${WORK}/div_zero.json)
# An opaque TensorFlow computation that nothing binds (comp#7b000c3, as ctff-inspect prints it).
check(1 [=[ctff: execution error at lambda.result.call.function: the tensorflow computation comp#7b000c3 has no binding (executor::bind)]=] ARGS ${D}/unbound_tensorflow.textproto ${WORK}/n41.json)

# --- Plugins: --bind PLUGIN.so -----------------------------------------------------------------
# testdata/plugins/doubling.cpp binds comp#7b000c3 by key: x -> 2x, a negative x throws.
set(P ${PLUGINS})
arg(minus5 [=[-5]=])
check(0 [=[82]=] ARGS ${D}/unbound_tensorflow.textproto --bind ${P}/doubling.so ${WORK}/n41.json)
check(0 [=[82]=] ARGS ${D}/unbound_tensorflow.textproto ${WORK}/n41.json --bind=${P}/doubling.so)
# The same TensorFlow computation on every client (testdata/map_tensorflow.textproto).
check(0 [=[[2,4,6]]=] ARGS ${D}/map_tensorflow.textproto --bind ${P}/doubling.so ${WORK}/three.json)

# --progress: a run of 4 clients sleeping 400 ms each on one thread (1.6 s) reports, after its
# first second, how far its map is, naming the call; the last report is every client. Without it,
# nothing.
if(NOT DEFINED WORKERS)
  arg(slow [=[[400,400,400,400]]=])
  execute_process(COMMAND ${RUN} ${D}/map_tensorflow.textproto --bind ${P}/sleeping.so --threads 1 --progress
                          ${WORK}/slow.json
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  math(EXPR cases "${cases} + 1")
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "[400,400,400,400]\n" OR
     NOT err MATCHES "ctff-run: federated_map at lambda.result \\(call 1 of 1\\): 4 of 4 clients\n$" OR
     err MATCHES "1 of 4")
    message(SEND_ERROR "ctff-run --progress: exit ${rc}\nstdout: ${out}\nstderr: ${err}")
    math(EXPR failures "${failures} + 1")
  endif()
endif()
# --tap: broadcast 5, add one on each of 4 clients (6 each), sum 24; the summary on stderr after
# the run, per path: how many values, the first K, the min, mean and max. With workers, each
# client's value inside the mapped function names the worker that computed it.
arg(five [=[5]=])
set(plus_one "lambda.result.block.local[1](fc_simple_symbol_1).call.argument.struct[0].lambda.result.block.local[0](fc_add_one_symbol_0)")
set(tap_run ${RUN} ${G}/simple_broadcast_map_sum.binpb --clients 4 ${WORK}/five.json)
if(DEFINED WORKERS)
  list(APPEND tap_run --workers ${WORKERS})
  if(AGGREGATE_ON_WORKERS)
    list(APPEND tap_run --aggregate-on-workers)
  endif()
endif()
execute_process(COMMAND ${tap_run} --tap fc_add_one_symbol_0 --tap "lambda.result.block.local[2](fc_simple_symbol_2)"
                        --tap-first 2
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
math(EXPR cases "${cases} + 1")
set(summary_server "tap lambda.result.block.local[2](fc_simple_symbol_2): 1 value (1 SERVER)\n  server: 24\n  value: min 24  mean 24  max 24\n")
if(DEFINED WORKERS)
  set(tap_ok TRUE)
  foreach(line "tap ${plus_one}: 4 values (" "  client 0 (worker 127.0.0.1:" "  ... 2 more\n  value: min 6  mean 6  max 6\n${summary_server}")
    string(FIND "${err}" "${line}" at)
    if(at EQUAL -1)
      set(tap_ok FALSE)
    endif()
  endforeach()
else()
  set(want "tap ${plus_one}: 4 values (4 CLIENTS)\n  client 0: 6\n  client 1: 6\n  ... 2 more\n  value: min 6  mean 6  max 6\n${summary_server}")
  string(COMPARE EQUAL "${err}" "${want}" tap_ok)
endif()
if(NOT rc EQUAL 0 OR NOT out STREQUAL "24\n" OR NOT tap_ok)
  message(SEND_ERROR "ctff-run --tap: exit ${rc}\nstdout: ${out}\nstderr: ${err}")
  math(EXPR failures "${failures} + 1")
endif()
# --taps FILE (ctff-inspect --paths' lines: the first field) and --tap-all: every value as it comes.
file(WRITE ${WORK}/taps.txt "# the map's result\nlambda.result.block.local[1](fc_simple_symbol_1)\tCall\t{int32}@CLIENTS\n\n")
execute_process(COMMAND ${tap_run} --taps ${WORK}/taps.txt --tap-all
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
math(EXPR cases "${cases} + 1")
set(want "")
foreach(i 0 1 2 3)
  string(APPEND want "tap lambda.result.block.local[1](fc_simple_symbol_1) client ${i}: 6\n")
endforeach()
if(NOT rc EQUAL 0 OR NOT out STREQUAL "24\n" OR NOT err STREQUAL want)
  message(SEND_ERROR "ctff-run --taps --tap-all: exit ${rc}\nstdout: ${out}\nstderr: ${err}")
  math(EXPR failures "${failures} + 1")
endif()
# A path with no building block: exit 2 before anything runs, the path named.
execute_process(COMMAND ${tap_run} --tap lambda.result.nowhere
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
math(EXPR cases "${cases} + 1")
if(NOT rc EQUAL 2 OR NOT out STREQUAL "" OR NOT err MATCHES "^ctff: bad argument at tap: `lambda.result.nowhere`: the computation has no building block at this path")
  message(SEND_ERROR "ctff-run --tap (no such path): exit ${rc}\nstdout: ${out}\nstderr: ${err}")
  math(EXPR failures "${failures} + 1")
endif()
check(2 "ctff-run: --tap-first takes a number of values from 0 to 1000000, not `x`" ARGS ${G}/sum_clients.binpb --tap-first x)

# 2 * 2147483647 wraps to -2 in int32.
check(0 [=[-2]=] ARGS ${D}/unbound_tensorflow.textproto --bind ${P}/doubling.so ${WORK}/int32_max.json)
# A binding that throws: exit 1, the binding, its plugin and its message named; at the call.
check(1 "ctff: execution error at lambda.result: the binding of comp#7b000c3 threw: ${P}/doubling.so: doubling takes no negative number"
  ARGS ${D}/unbound_tensorflow.textproto --bind ${P}/doubling.so ${WORK}/minus5.json)
# --list-bindings: key, kind, type and who binds it; no argument read.
check(0 [=[comp#7b000c3 tensorflow (int32 -> int32) unbound]=] ARGS ${D}/unbound_tensorflow.textproto --list-bindings)
check(0 "comp#7b000c3 tensorflow (int32 -> int32) bound by ${P}/doubling.so"
  ARGS ${D}/unbound_tensorflow.textproto --bind ${P}/doubling.so --list-bindings)
# No opaque computation: nothing to list.
check(0 "" ARGS ${G}/sum_clients.binpb --list-bindings)
# Not a plugin of this ctff-run: exit 2, the file named.
check(2 "ctff-run: --bind: cannot open ${P}/missing.so"
  ARGS ${D}/unbound_tensorflow.textproto --bind ${P}/missing.so ${WORK}/n41.json)
if(NOT DEFINED WORKERS)
  execute_process(COMMAND ${RUN} ${D}/unbound_tensorflow.textproto --bind ${D}/identity.textproto ${WORK}/n41.json
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  math(EXPR cases "${cases} + 1")
  if(NOT rc EQUAL 2 OR NOT err MATCHES "^ctff-run: [^\n]*/identity.textproto: not a loadable shared library \\(dlopen: ")
    message(SEND_ERROR "ctff-run --bind of a text file: exit ${rc}, ${err}")
    math(EXPR failures "${failures} + 1")
  endif()
endif()
check(2 "ctff-run: ${P}/no_entry.so: not a ctff plugin (no ctff_plugin_info; define its entry point with CTFF_PLUGIN, <ctff/run/plugin.hpp>)"
  ARGS ${D}/unbound_tensorflow.textproto --bind ${P}/no_entry.so ${WORK}/n41.json)
check(2 "ctff-run: ${P}/wrong_abi.so: built for ctff plugin ABI 2, this one needs ABI 1; rebuild the plugin against the headers of this ctff-run"
  ARGS ${D}/unbound_tensorflow.textproto --bind ${P}/wrong_abi.so ${WORK}/n41.json)
check(2 "ctff-run: ${P}/binds_nothing.so: the plugin binds nothing"
  ARGS ${D}/unbound_tensorflow.textproto --bind ${P}/binds_nothing.so ${WORK}/n41.json)
check(2 "ctff-run: comp#7b000c3 is bound by both ${P}/doubling.so and ${P}/doubling.so"
  ARGS ${D}/unbound_tensorflow.textproto --bind ${P}/doubling.so --bind ${P}/doubling.so ${WORK}/n41.json)
check(2 [=[ctff-run: --bind needs a value]=] ARGS ${D}/unbound_tensorflow.textproto --bind)
check(2 [=[ctff-run: --bind needs a plugin file]=] ARGS ${D}/unbound_tensorflow.textproto --bind= ${WORK}/n41.json)
check(2 [=[ctff-run: unknown option --binder]=] ARGS ${D}/unbound_tensorflow.textproto --binder x ${WORK}/n41.json)

# Python's federated evaluation round (tests/goldens/python/benchmark_programs.py), its TensorFlow
# client evaluation comp#48c066fe bound by the example plugin (examples/plugin/fedeval_plugin.cpp:
# logits = x * weights + bias; loss: the mean over examples of the squared error against the
# one-hot label; accuracy: the share whose largest logit, the first on a tie, is the label's).
set(FE ${G}/python/benchmark_programs/fedeval_round.binpb)
# A row of `n` numbers, all 0 but `value` at `at`.
function(row out n at value)
  math(EXPR after "${n} - ${at} - 1")
  string(REPEAT "0," ${at} head)
  string(REPEAT ",0" ${after} tail)
  set(${out} "[${head}${value}${tail}]" PARENT_SCOPE)
endfunction()
# weights: 784 rows of 10, row i < 10 the one-hot of class i (logit j = pixel j), the rest 0.
set(weights)
foreach(i RANGE 0 9)
  row(r 10 ${i} 1)
  list(APPEND weights "${r}")
endforeach()
row(zero_row 10 0 0)
string(REPEAT "${zero_row}," 773 zeros)
list(JOIN weights "," weights)
set(model "{\"weights\":[${weights},${zeros}${zero_row}],\"bias\":[0,0,0,0,0,0,0,0,0,0]}")
row(xa 784 3 1)    # label 3: logits e3, right; squared error 0
row(xb 784 2 2)    # label 5: logits 2 e2, wrong (2); squared error 2^2 + 1 = 5
row(xc 784 7 0.5)  # label 7: logits 0.5 e7, right; squared error 0.5^2 = 0.25
row(xe 784 4 3)    # label 4: logits 3 e4, right; squared error 2^2 = 4
# Client 0: one batch of a and b: loss 2.5, accuracy 0.5, 2 examples, weight 2.
# Client 1: two batches, c then e: loss 2.125, accuracy 1, 2 examples, weight 2.
arg(fedeval "{\"model\":${model},\"client_data\":[[{\"x\":[${xa},${xb}],\"y\":[3,5]}],[{\"x\":[${xc}],\"y\":[7]},{\"x\":[${xe}],\"y\":[4]}]]}")
# loss (2.5*2 + 2.125*2)/4 = 2.3125, accuracy (0.5*2 + 1*2)/4 = 0.75, 4 examples, worst loss 2.5.
foreach(threads 1 2)
  check(0 [=[{"loss":2.3125,"accuracy":0.75,"num_examples":4,"max_loss":2.5}]=]
    ARGS ${FE} --bind ${EXAMPLE_PLUGIN} --threads ${threads} ${WORK}/fedeval.json)
endforeach()
check(0 "comp#48c066fe tensorflow (<model=<weights=float32[784,10],bias=float32[10]>,dataset=<x=float32[?,784],y=int32[?]>*> -> <metrics=<loss=float32,accuracy=float32,num_examples=int32>,weight=float32>) bound by ${EXAMPLE_PLUGIN}"
  ARGS ${FE} --list-bindings --bind ${EXAMPLE_PLUGIN})
# Without the plugin: the unbound block named (the federated_map's function, the first local).
check(1 [=[ctff: execution error at lambda.result.block.local[1](fc_fedeval_round_symbol_1).call.argument.struct[0]: the tensorflow computation comp#48c066fe has no binding (executor::bind)]=]
  ARGS ${FE} ${WORK}/fedeval.json)
# The plugin's own error, a label out of range, named with the binding, at the federated_map's call
# (the local's value: the path of a call is that of its place, as at lambda.result above).
file(READ ${WORK}/fedeval.json fedeval_json)
string(REPLACE "\"y\":[7]" "\"y\":[12]" bad_label "${fedeval_json}")
file(WRITE ${WORK}/bad_label.json "${bad_label}")
check(1 "ctff: execution error at lambda.result.block.local[1](fc_fedeval_round_symbol_1): client 1: the binding of comp#48c066fe threw: ${EXAMPLE_PLUGIN}: label 12 is not a class 0-9"
  ARGS ${FE} --bind ${EXAMPLE_PLUGIN} ${WORK}/bad_label.json)

# The files --output wrote, as numpy reads them (the values the identity argument holds).
if(NOT DEFINED WORKERS AND PYTHON_NUMPY)
  execute_process(COMMAND ${PYTHON_NUMPY} ${D}/numpy/check_output.py ${WORK}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  math(EXPR cases "${cases} + 1")
  if(NOT rc EQUAL 0)
    message(SEND_ERROR "numpy on ctff-run's --output files: ${out}${err}")
    math(EXPR failures "${failures} + 1")
  endif()
endif()

set(how "")
if(DEFINED WORKERS)
  set(how " (--workers ${WORKERS})")
endif()
if(failures GREATER 0)
  message(FATAL_ERROR "ctff-run${how}: ${failures} of ${cases} cases failed")
endif()
message(STATUS "ctff-run${how}: ${cases} cases passed")
