// Inline SVG charts of a job's trials, drawn by the tracker (no JavaScript library): best-so-far
// GFLOPS against trial number with every trial as a point coloured by its outcome, and latency.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace tunefarm::tracker::http {

// `trials` is JobDetailJson's "trials" array. One `circle.trial` per trial (failed trials sit on
// the x axis), a `path.best` step line of best-so-far GFLOPS, axes with min/max labels.
std::string GflopsChartSvg(const nlohmann::json& trials);
// One `circle.latency` per ok trial: median seconds on a log scale against trial number.
std::string LatencyChartSvg(const nlohmann::json& trials);
// A model job's estimated latency (ms, a step line) against the curve's `x_field` ("trial" or
// "elapsed_seconds"), with the measured end-to-end latency as a dashed line when there is one.
std::string ModelCurveSvg(const char* id, const nlohmann::json& curve, const char* x_field,
                          const char* x_label, const nlohmann::json& measured_seconds);
// The fill colour of an outcome's points ("ok", "build_error", ...).
const char* OutcomeColor(std::string_view outcome);
// An HTML legend (`ul.legend`) of every outcome's colour.
std::string OutcomeLegendHtml();

}  // namespace tunefarm::tracker::http
