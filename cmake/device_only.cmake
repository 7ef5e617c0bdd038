# The rest of a device-only build (TUNEFARM_DEVICE_ONLY): the graph runtime as a board installs it
# and deploy/run_model linked against it. Included after cmake/device_layers.cmake.
include(${CMAKE_SOURCE_DIR}/cmake/runtime_shared.cmake)
add_executable(run_model ${CMAKE_SOURCE_DIR}/deploy/run_model.cc)
target_link_libraries(run_model PRIVATE tunefarm_graph_runtime)
message(STATUS "device-only build for ${CMAKE_SYSTEM_PROCESSOR}: tunefarm-rpc-server, "
  "tunefarm-measure, libtunefarm_graph_runtime.so, run_model")
