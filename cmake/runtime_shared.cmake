# The runtime as a shared library: what a device installs. It is tf_runtime's own objects (built
# position-independent, so they are compiled once) linked into libtunefarm_runtime.so against the
# system's shared absl. A stripped copy beside it is what bench/runtime_size checks against the
# size budget.
set_target_properties(tf_runtime PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_library(tunefarm_runtime SHARED $<TARGET_OBJECTS:tf_runtime>)
target_link_libraries(tunefarm_runtime PRIVATE
  absl::status absl::statusor absl::strings Threads::Threads ${CMAKE_DL_LIBS})
# Every symbol the runtime needs must come from a library it names: a device has nothing else.
target_link_options(tunefarm_runtime PRIVATE -Wl,--no-undefined -Wl,--as-needed)
set(TF_RUNTIME_STRIPPED ${CMAKE_CURRENT_BINARY_DIR}/libtunefarm_runtime.stripped.so)
add_custom_command(TARGET tunefarm_runtime POST_BUILD
  COMMAND ${CMAKE_STRIP} --strip-all -o ${TF_RUNTIME_STRIPPED} $<TARGET_FILE:tunefarm_runtime>
  BYPRODUCTS ${TF_RUNTIME_STRIPPED}
  COMMENT "Stripping libtunefarm_runtime.so")

if(TARGET runtime_size)
  add_dependencies(runtime_size tunefarm_runtime)
  target_compile_definitions(runtime_size PRIVATE TUNEFARM_RUNTIME_STRIPPED="${TF_RUNTIME_STRIPPED}")
endif()

# Libraries shaped like the code generator's output, hand-written, for the loader and module
# tests: a good one and one per way a library can be broken.
if(TARGET runtime_tests)
  set(_tf_kernel_variants good missing_kernel bad_manifest no_launch)
  foreach(variant ${_tf_kernel_variants})
    set(lib tf_test_kernels_${variant})
    add_library(${lib} MODULE tests/unit/runtime/testdata/test_kernels.cc)
    target_include_directories(${lib} PRIVATE ${CMAKE_SOURCE_DIR})
    target_include_directories(${lib} SYSTEM PRIVATE ${DLPACK_INCLUDE})
    string(TOUPPER ${variant} upper)
    target_compile_definitions(${lib} PRIVATE TF_TEST_KERNELS_${upper}=1)
    add_dependencies(runtime_tests ${lib})
    target_compile_definitions(runtime_tests PRIVATE
      TF_TEST_KERNELS_${upper}_PATH="$<TARGET_FILE:${lib}>")
  endforeach()
endif()

# runtime/core and the graph executor as one shared library: what a board installs to run model
# modules (deploy/). Compiled from the sources with nothing but libc, libstdc++, pthreads and
# libdl (--no-undefined proves it), and stripped beside it for the size budget (600 KB).
file(GLOB _tf_graph_runtime_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/runtime/core/*.cc
  ${CMAKE_SOURCE_DIR}/runtime/graph/*.cc)
add_library(tunefarm_graph_runtime SHARED ${_tf_graph_runtime_sources})
target_include_directories(tunefarm_graph_runtime PUBLIC ${CMAKE_SOURCE_DIR})
target_include_directories(tunefarm_graph_runtime SYSTEM PUBLIC ${DLPACK_INCLUDE})
target_link_libraries(tunefarm_graph_runtime PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
target_link_options(tunefarm_graph_runtime PRIVATE -Wl,--no-undefined -Wl,--as-needed)
set(TF_GRAPH_RUNTIME_STRIPPED ${CMAKE_CURRENT_BINARY_DIR}/libtunefarm_graph_runtime.stripped.so)
add_custom_command(TARGET tunefarm_graph_runtime POST_BUILD
  COMMAND ${CMAKE_STRIP} --strip-all -o ${TF_GRAPH_RUNTIME_STRIPPED}
    $<TARGET_FILE:tunefarm_graph_runtime>
  BYPRODUCTS ${TF_GRAPH_RUNTIME_STRIPPED}
  COMMENT "Stripping libtunefarm_graph_runtime.so")
if(TARGET runtime_size)
  add_dependencies(runtime_size tunefarm_graph_runtime)
  target_compile_definitions(runtime_size PRIVATE
    TUNEFARM_GRAPH_RUNTIME_STRIPPED="${TF_GRAPH_RUNTIME_STRIPPED}")
endif()
if(TARGET runtime_graph_tests)
  add_dependencies(runtime_graph_tests tunefarm_graph_runtime)
  target_compile_definitions(runtime_graph_tests PRIVATE
    TUNEFARM_GRAPH_RUNTIME_STRIPPED="${TF_GRAPH_RUNTIME_STRIPPED}")
endif()
