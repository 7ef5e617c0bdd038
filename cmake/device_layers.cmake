# The device side: what runs on a board or phone that joins a farm (the runtime, the graph
# executor, candidate checking and timing, the API's messages and the slim worker), with no
# compiler, LLVM or tuner. The full build includes it among its layers; a device-only build
# (TUNEFARM_DEVICE_ONLY, scripts/build-aarch64.sh) builds nothing else.

tf_add_layer(tf_runtime runtime runtime/core
  DEPS absl::status absl::statusor absl::strings Threads::Threads ${CMAKE_DL_LIBS}
  SYSTEM_INCLUDES ${DLPACK_INCLUDE})

# The device API (one interface for GPUs), the GPU module format and the functions run on it.
tf_add_layer(tf_runtime_gpu runtime/gpu DEPS tf_runtime)
# Its implementations, each loading its driver with dlopen: CUDA's driver API, and OpenCL's ICD
# loader (the Khronos headers give the types; they are architecture-independent, so a cross build
# uses the host's through a directory holding only them).
tf_add_layer(tf_runtime_cuda runtime/cuda DEPS tf_runtime_gpu ${CMAKE_DL_LIBS})
find_path(TF_OPENCL_HEADERS CL/cl.h PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
set(TF_OPENCL_INCLUDE ${CMAKE_BINARY_DIR}/opencl-headers)
file(MAKE_DIRECTORY ${TF_OPENCL_INCLUDE})
file(CREATE_LINK ${TF_OPENCL_HEADERS}/CL ${TF_OPENCL_INCLUDE}/CL SYMBOLIC)
tf_add_layer(tf_runtime_opencl runtime/opencl DEPS tf_runtime_gpu ${CMAKE_DL_LIBS}
  SYSTEM_INCLUDES ${TF_OPENCL_INCLUDE})
# The process's device of each API (CUDA device 0, the chosen OpenCL device).
tf_add_layer(tf_runtime_devices runtime/devices DEPS tf_runtime_cuda tf_runtime_opencl)

# The simulated VTA-shaped accelerator (docs/accelerator.md): its ISA and binary encoding, and a
# bit-exact simulator that counts cycles. Plain C++ and absl, so any worker can host it.
tf_add_layer(tf_runtime_vta runtime/vta DEPS absl::status absl::statusor absl::strings)

# The graph executor: runs a built model module with runtime/core alone (no absl, no compiler).
tf_add_layer(tf_runtime_graph runtime/graph DEPS tf_runtime)

# Candidate checking and timing on a device: runtime only, shared by the local runner's child
# process (tunefarm-measure) and the farm's device-side worker.
tf_add_layer(tf_runtime_measure runtime/measure DEPS tf_runtime tf_runtime_devices tf_runtime_graph
  nlohmann_json::nlohmann_json
  OpenSSL::Crypto)
# The measure child (tunefarm-measure): the local runner runs every candidate in it.
add_executable(tunefarm-measure runtime/measure/child/main.cc)
target_link_libraries(tunefarm-measure PRIVATE tf_runtime_measure)
# The last place runners look for the child (after an explicit path, the environment and the
# directory of the running executable): where this build writes it.
target_compile_definitions(tf_runtime_measure PRIVATE
  TUNEFARM_MEASURE_PROGRAM="$<TARGET_FILE:tunefarm-measure>")

# The public API (proto/, package tunefarm.v1), generated at build time. Generated headers cost
# ~9 s a TU: only tracker/service, rpc_server and their tests include them.
file(GLOB TF_PROTO_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/proto/tunefarm/v1/*.proto)
add_library(tf_proto STATIC ${TF_PROTO_FILES})
target_link_libraries(tf_proto PUBLIC protobuf::libprotobuf gRPC::grpc++)
target_include_directories(tf_proto SYSTEM PUBLIC ${CMAKE_CURRENT_BINARY_DIR})
target_compile_options(tf_proto PRIVATE -w)  # generated code: not ours to keep warning-free
# Each generated source has file-local tables of the same names.
set_target_properties(tf_proto PROPERTIES UNITY_BUILD OFF)
protobuf_generate(TARGET tf_proto LANGUAGE cpp)
protobuf_generate(TARGET tf_proto LANGUAGE grpc GENERATE_EXTENSIONS .grpc.pb.h .grpc.pb.cc
  PLUGIN "protoc-gen-grpc=$<TARGET_FILE:gRPC::grpc_cpp_plugin>")

# proto/mapping/: the one conversion between the API's messages and the runtime's measurement
# types, for the tracker and the worker alike.
tf_add_layer(tf_proto_mapping proto/mapping DEPS tf_runtime_measure tf_proto)

tf_add_layer(tf_rpc_server rpc_server DEPS tf_runtime tf_runtime_graph tf_runtime_measure tf_proto
  tf_proto_mapping)
target_compile_definitions(tf_rpc_server PRIVATE TUNEFARM_VERSION="${PROJECT_VERSION}")
# Workers run each remote session in a process of the slim binary (--serve-sessions); the last
# place they look for it is where this build writes it.
if(EXISTS ${CMAKE_SOURCE_DIR}/rpc_server/slim/main.cc)
  target_compile_definitions(tf_rpc_server PRIVATE
    TUNEFARM_SESSION_PROGRAM="$<TARGET_FILE:tunefarm-rpc-server>")
endif()
# The slim worker for boards and phones: runtime + gRPC client only; it is its own measure child.
if(EXISTS ${CMAKE_SOURCE_DIR}/rpc_server/slim/main.cc)
  add_executable(tunefarm-rpc-server rpc_server/slim/main.cc)
  target_link_libraries(tunefarm-rpc-server PRIVATE tf_rpc_server)
  add_custom_command(TARGET tunefarm-rpc-server POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DBINARY=$<TARGET_FILE:tunefarm-rpc-server> -DSTRIP=${CMAKE_STRIP}
      -P ${CMAKE_SOURCE_DIR}/cmake/print_binary_size.cmake VERBATIM)
endif()
