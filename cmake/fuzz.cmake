# The fuzz harnesses of tests/fuzz, one per parser of outside input. With TUNEFARM_FUZZ (clang, as
# scripts/fuzz.sh configures it) each is a libFuzzer binary; otherwise each is linked to a driver
# that replays its seed corpus, and ctest runs that replay (under ASan/UBSan in the sanitizer
# build), so every input the fuzzers ever crashed on stays a regression test.

# tf_add_fuzz_target(NAME DEPS ...): tests/fuzz/NAME_fuzz.cc with corpus tests/fuzz/corpus/NAME.
function(tf_add_fuzz_target name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  set(src ${CMAKE_SOURCE_DIR}/tests/fuzz/${name}_fuzz.cc)
  set(corpus ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${name})
  if(TUNEFARM_FUZZ)
    add_executable(${name}_fuzz ${src})
    target_link_options(${name}_fuzz PRIVATE -fsanitize=fuzzer)
  else()
    add_executable(${name}_fuzz ${src} ${CMAKE_SOURCE_DIR}/tests/fuzz/replay_main.cc)
    add_test(NAME fuzz_replay_${name} COMMAND ${name}_fuzz ${corpus})
  endif()
  target_include_directories(${name}_fuzz PRIVATE ${CMAKE_SOURCE_DIR})
  target_link_libraries(${name}_fuzz PRIVATE ${ARG_DEPS})
endfunction()

tf_add_fuzz_target(json_nesting DEPS tf_runtime nlohmann_json::nlohmann_json)
tf_add_fuzz_target(module_manifest DEPS tf_runtime)
tf_add_fuzz_target(measure_protocol DEPS tf_runtime_measure)
tf_add_fuzz_target(records_jsonl DEPS tf_tuner)
tf_add_fuzz_target(te_script DEPS tf_script)
tf_add_fuzz_target(tracker_requests DEPS tf_tracker_service)
tf_add_fuzz_target(onnx_import DEPS tf_frontend_onnx)
tf_add_fuzz_target(onnx_qdq DEPS tf_frontend_onnx)
tf_add_fuzz_target(npy DEPS tf_runtime)
tf_add_fuzz_target(gpu_module DEPS tf_runtime_gpu)
tf_add_fuzz_target(query_token DEPS tf_tracker_http)
tf_add_fuzz_target(elf_machine DEPS tf_runtime)
tf_add_fuzz_target(vta_program DEPS tf_runtime_vta)
# TUNEFARM_LOG's check lives with the command line (tools/cli), which no library holds.
tf_add_fuzz_target(log_levels DEPS absl::strings spdlog::spdlog)
target_sources(log_levels_fuzz PRIVATE ${CMAKE_SOURCE_DIR}/tools/cli/environment.cc)
