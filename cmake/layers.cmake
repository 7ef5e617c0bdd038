# Helpers that turn a folder into a library or a test binary, so a new file needs no CMake edit.

# tf_add_layer(NAME DIR [DIR...] DEPS ... [PRIVATE_DEPS ...] [SYSTEM_INCLUDES ...]): a static
# library of every .cc directly in the DIRs; a folder with no sources yet makes an interface
# library. PRIVATE_DEPS are for heavy headers (LLVM) that must not reach the layer's users.
function(tf_add_layer name)
  cmake_parse_arguments(ARG "" "" "DEPS;PRIVATE_DEPS;SYSTEM_INCLUDES" ${ARGN})
  set(srcs "")
  foreach(dir ${ARG_UNPARSED_ARGUMENTS})
    file(GLOB dir_srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*.cc)
    list(APPEND srcs ${dir_srcs})
  endforeach()
  if(NOT srcs)
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${CMAKE_SOURCE_DIR})
    target_link_libraries(${name} INTERFACE ${ARG_DEPS})
    target_include_directories(${name} SYSTEM INTERFACE ${ARG_SYSTEM_INCLUDES})
    return()
  endif()
  add_library(${name} STATIC ${srcs})
  target_include_directories(${name} PUBLIC ${CMAKE_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  if(ARG_PRIVATE_DEPS)
    target_link_libraries(${name} PRIVATE ${ARG_PRIVATE_DEPS})
  endif()
  target_include_directories(${name} SYSTEM PUBLIC ${ARG_SYSTEM_INCLUDES})
endfunction()

# The shared fixtures of tests/testing, compiled once for every test binary. An object library,
# not a static one: private_temp_dir.cc works through a static constructor that nothing calls, so
# an archive would leave it out of the binaries (linked directly, its objects go in each binary).
function(tf_add_test_fixtures)
  if(TARGET tf_testing)
    return()
  endif()
  file(GLOB fixtures CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/testing/*.cc)
  add_library(tf_testing OBJECT ${fixtures})
  target_include_directories(tf_testing PUBLIC ${CMAKE_SOURCE_DIR})
  target_link_libraries(tf_testing PUBLIC tf_runtime absl::strings GTest::gtest)
  target_compile_definitions(tf_testing PRIVATE TUNEFARM_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  tf_test_code_options(tf_testing)
endfunction()

# A sanitizer build compiles the tests' own code (their assertions, fixtures and references)
# unoptimized: instrumented, every access still checked, and half the compile time of -O1, which
# was half of the ASan build (1,339 of 2,759 s of compile jobs). The code under test keeps -O1.
function(tf_test_code_options target)
  if(TUNEFARM_SANITIZE)
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()

# tf_add_test_binary(NAME DIR [DIR...] DEPS ...): one GoogleTest binary of every *_test.cc directly
# in the DIRs plus the shared fixtures in tests/testing. Discovery runs before the tests, not at
# build time (a binary that cannot start here must not break the build).
function(tf_add_test_binary name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  set(srcs "")
  foreach(dir ${ARG_UNPARSED_ARGUMENTS})
    file(GLOB dir_srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*_test.cc)
    list(APPEND srcs ${dir_srcs})
  endforeach()
  if(NOT srcs)
    return()
  endif()
  tf_add_test_fixtures()
  add_executable(${name} ${srcs})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} tf_testing GTest::gtest GTest::gtest_main
    GTest::gmock)
  target_compile_definitions(${name} PRIVATE TUNEFARM_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  tf_test_code_options(${name})
  # Labelled by binary, so a build of some binaries (the TSan one) can run just theirs.
  # Listing a sanitized binary cold from disk on a busy CI machine passed the default 5 s
  # discovery timeout (TSan's tuner_measure_tests lists in 1.9 s cold here, 0.1 s warm).
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 120
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} PROPERTIES LABELS ${name})
endfunction()
