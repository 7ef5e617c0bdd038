# runtime/core and a kernel runner (tests/unit/compiler/codegen/llvm/aarch64_runner) cross-compiled
# into one AArch64 executable, so the code generator's tests can run libraries exported for
# aarch64-linux-gnu under qemu-aarch64. Built as part of `all` wherever aarch64-linux-gnu-g++
# exists. runtime/core is libc-only for this reason; only dlpack's header is added to the cross
# compiler's include path (never the host's /usr/include).
find_program(TF_AARCH64_CXX aarch64-linux-gnu-g++)
if(NOT TF_AARCH64_CXX)
  message(STATUS "aarch64-linux-gnu-g++ not found: the AArch64 kernel runner is not built")
  return()
endif()

set(_tf_a64_include ${CMAKE_BINARY_DIR}/aarch64_include)
configure_file(${DLPACK_INCLUDE}/dlpack/dlpack.h ${_tf_a64_include}/dlpack/dlpack.h COPYONLY)
file(GLOB _tf_a64_core_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/runtime/core/*.cc)
file(GLOB _tf_a64_core_headers CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/runtime/core/*.h)
set(_tf_a64_main ${CMAKE_SOURCE_DIR}/tests/unit/compiler/codegen/llvm/aarch64_runner/runner_main.cc)
set(TF_AARCH64_RUNNER ${CMAKE_BINARY_DIR}/aarch64/tf_kernel_runner)
set(_tf_a64_flags -std=c++20 -O2 -Wall -Wextra)
if(TUNEFARM_WERROR)
  list(APPEND _tf_a64_flags -Werror -Wno-restrict)
endif()

add_custom_command(OUTPUT ${TF_AARCH64_RUNNER}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/aarch64
  COMMAND ${TF_AARCH64_CXX} ${_tf_a64_flags} -I${CMAKE_SOURCE_DIR} -isystem ${_tf_a64_include}
          ${_tf_a64_core_sources} ${_tf_a64_main} -o ${TF_AARCH64_RUNNER} -ldl -pthread
  DEPENDS ${_tf_a64_core_sources} ${_tf_a64_core_headers} ${_tf_a64_main}
          ${_tf_a64_include}/dlpack/dlpack.h
  COMMENT "Cross-compiling runtime/core and the kernel runner for AArch64"
  VERBATIM)
add_custom_target(tf_kernel_runner_aarch64 ALL DEPENDS ${TF_AARCH64_RUNNER})

# The tests skip (with the reason) when the runner was not built; it is not a build dependency
# of theirs, so a runtime/core that fails to cross-compile does not break the host test build.
if(TARGET codegen_llvm_tests)
  target_compile_definitions(codegen_llvm_tests PRIVATE
    TUNEFARM_AARCH64_RUNNER="${TF_AARCH64_RUNNER}")
endif()

# deploy/run_model with runtime/core and runtime/graph, cross-compiled the same way: the graph
# executor's tests run a model module built for AArch64 under qemu-aarch64 with it.
file(GLOB _tf_a64_graph_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/runtime/graph/*.cc)
file(GLOB _tf_a64_graph_headers CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/runtime/graph/*.h)
set(_tf_a64_run_model_main ${CMAKE_SOURCE_DIR}/deploy/run_model.cc)
set(TF_AARCH64_RUN_MODEL ${CMAKE_BINARY_DIR}/aarch64/run_model)
add_custom_command(OUTPUT ${TF_AARCH64_RUN_MODEL}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/aarch64
  COMMAND ${TF_AARCH64_CXX} ${_tf_a64_flags} -I${CMAKE_SOURCE_DIR} -isystem ${_tf_a64_include}
          ${_tf_a64_core_sources} ${_tf_a64_graph_sources} ${_tf_a64_run_model_main}
          -o ${TF_AARCH64_RUN_MODEL} -ldl -pthread
  DEPENDS ${_tf_a64_core_sources} ${_tf_a64_core_headers} ${_tf_a64_graph_sources}
          ${_tf_a64_graph_headers} ${_tf_a64_run_model_main} ${_tf_a64_include}/dlpack/dlpack.h
  COMMENT "Cross-compiling runtime/core, runtime/graph and deploy/run_model for AArch64"
  VERBATIM)
add_custom_target(tf_run_model_aarch64 ALL DEPENDS ${TF_AARCH64_RUN_MODEL})
# The graph executor's tests and the end-to-end test of a model built for AArch64 run it.
foreach(t runtime_graph_tests e2e_tests)
  if(TARGET ${t})
    target_compile_definitions(${t} PRIVATE TUNEFARM_AARCH64_RUN_MODEL="${TF_AARCH64_RUN_MODEL}")
  endif()
endforeach()
