# Included by the find_package consumers after find_package(ctff): with CTFF_EXPECTED_PREFIX, the
# ctff found must be the one installed there (not another on the system).
if(CTFF_EXPECTED_PREFIX)
  file(REAL_PATH "${CTFF_EXPECTED_PREFIX}" _expected)
  file(REAL_PATH "${ctff_DIR}" _found)
  string(FIND "${_found}" "${_expected}/" _at)
  if(NOT _at EQUAL 0)
    message(FATAL_ERROR "found ctff in ${ctff_DIR}, expected it under ${CTFF_EXPECTED_PREFIX}")
  endif()
endif()
