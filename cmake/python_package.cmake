# The Python package (python/tunefarm/): its sources copied to build/python/tunefarm/ and the
# tunefarm.v1 messages and stubs generated beside them with Debian's protoc and
# grpc_python_plugin, so that PYTHONPATH=build/python imports it. No pip, nothing installed.
find_program(TF_GRPC_PYTHON_PLUGIN grpc_python_plugin)
if(NOT TF_GRPC_PYTHON_PLUGIN)
  message(STATUS "tunefarm: no grpc_python_plugin (protobuf-compiler-grpc); no Python package")
  return()
endif()

set(TF_PYTHON_DIR ${CMAKE_BINARY_DIR}/python)
set(_tf_pkg ${TF_PYTHON_DIR}/tunefarm)
set(_tf_gen ${_tf_pkg}/_generated)
set(_tf_outputs)
file(GLOB _tf_py_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/python/tunefarm/*.py)
foreach(src ${_tf_py_sources})
  get_filename_component(name ${src} NAME)
  add_custom_command(OUTPUT ${_tf_pkg}/${name}
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${src} ${_tf_pkg}/${name}
    DEPENDS ${src} VERBATIM)
  list(APPEND _tf_outputs ${_tf_pkg}/${name})
endforeach()

set(_tf_protos common session tracker worker)
set(_tf_proto_files)
set(_tf_stub_files)
foreach(p ${_tf_protos})
  list(APPEND _tf_proto_files ${CMAKE_SOURCE_DIR}/proto/tunefarm/v1/${p}.proto)
  list(APPEND _tf_stub_files ${_tf_gen}/proto/tunefarm/v1/${p}_pb2.py
    ${_tf_gen}/proto/tunefarm/v1/${p}_pb2_grpc.py)
endforeach()
add_custom_command(OUTPUT ${_tf_stub_files}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_tf_gen}
  COMMAND protobuf::protoc -I ${CMAKE_SOURCE_DIR} --python_out=${_tf_gen}
    --grpc_python_out=${_tf_gen} --plugin=protoc-gen-grpc_python=${TF_GRPC_PYTHON_PLUGIN}
    ${_tf_proto_files}
  # protoc names the imports after the .proto paths (`from proto.tunefarm.v1 import ...`): made
  # relative to the package, so no top-level `proto` module is needed on sys.path.
  COMMAND ${CMAKE_COMMAND} -DDIR=${_tf_gen} -P ${CMAKE_SOURCE_DIR}/cmake/python_stub_imports.cmake
  DEPENDS ${_tf_proto_files} ${CMAKE_SOURCE_DIR}/cmake/python_stub_imports.cmake
  COMMENT "Generating the Python stubs of tunefarm.v1" VERBATIM)
list(APPEND _tf_outputs ${_tf_stub_files})
# Where the libraries the package loads (the C ABIs of the driver and the model runtime) and the
# binary its tests compare with are in this build.
file(GENERATE OUTPUT ${_tf_pkg}/_build_paths.py
  INPUT ${CMAKE_SOURCE_DIR}/python/tunefarm/_build_paths.py.in)
add_custom_target(tf_python ALL DEPENDS ${_tf_outputs})
add_dependencies(tf_python tunefarm tunefarm_graph_runtime tunefarm_library)
