# ctff_precompile_headers(<target> [<header>...])
#
# Precompiles <ctff/ctff.hpp> (or the headers given, e.g. <ctff/ctff.hpp> <ctff/run.hpp>) for
# <target>, which must link ctff::ctff or ctff::proto: its sources then skip parsing ctff, about
# a third to a half of a small program's compile (docs/performance.md, "Precompiled headers").
#
# PRIVATE, one target at a time, never on ctff::ctff itself: an INTERFACE precompiled header would
# reach every target that links ctff, directly or not, each building its own copy, and would hide
# an #include a source forgot. The header is precompiled as part of <target>, with its flags
# (ctff::ctff's constant-evaluation limits, -O, -std, definitions): the compilers check some flags
# against the precompiled header's (clang: an error; g++: -Winvalid-pch, which CMake adds), not all
# (neither checks the constexpr limits). Share it only between targets with the same flags:
# target_precompile_headers(<other> REUSE_FROM <target>).
function(ctff_precompile_headers target)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "ctff_precompile_headers: `${target}` is not a target")
  endif()
  set(headers ${ARGN})
  if(NOT headers)
    set(headers <ctff/ctff.hpp>)
  endif()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
