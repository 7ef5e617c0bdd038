#include "tracker/http/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tuner/record.h"

namespace tunefarm::tracker::http {
namespace {

using nlohmann::json;

constexpr double kWidth = 720, kHeight = 260;
constexpr double kLeft = 60, kRight = 12, kTop = 12, kBottom = 30;

struct Frame {
  double x_min = 1, x_max = 1, y_min = 0, y_max = 1;
  bool log_y = false;
  const char* x_label = "trial";
  double X(double x) const {
    const double span = x_max - x_min;
    return kLeft + (x - x_min) / (span > 0 ? span : 1.0) * PlotWidth();
  }
  double Y(double y) const {
    double lo = log_y ? std::log10(y_min) : y_min, hi = log_y ? std::log10(y_max) : y_max;
    double v = log_y ? std::log10(std::max(y, y_min)) : y;
    double t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
    return kTop + (1 - t) * (kHeight - kTop - kBottom);
  }
  static double PlotWidth() { return kWidth - kLeft - kRight; }
};

std::string Num(double v) { return absl::StrFormat("%.1f", v); }
std::string Label(double v) { return absl::StrFormat("%.3g", v); }

// The frame, the axes and their min/max labels; the caller appends the marks and "</svg>".
std::string Open(const char* id, const Frame& f, const std::string& y_label) {
  const double bottom = kHeight - kBottom;
  return absl::StrCat(
      "<svg id=\"", id, "\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"", kWidth,
      "\" height=\"", kHeight, "\" viewBox=\"0 0 ", kWidth, " ", kHeight, "\">",
      "<path class=\"axis\" d=\"M", kLeft, " ", kTop, "V", bottom, "H", kWidth - kRight,
      "\" stroke=\"#555\" fill=\"none\"/>", "<text x=\"", kLeft - 4, "\" y=\"", kTop + 8,
      "\" text-anchor=\"end\" font-size=\"10\">", Label(f.y_max), "</text><text x=\"", kLeft - 4,
      "\" y=\"", bottom, "\" text-anchor=\"end\" font-size=\"10\">", Label(f.y_min),
      "</text><text x=\"", kLeft, "\" y=\"", kHeight - 8, "\" font-size=\"10\">", Label(f.x_min),
      "</text><text x=\"", kWidth - kRight, "\" y=\"", kHeight - 8,
      "\" text-anchor=\"end\" font-size=\"10\">", Label(f.x_max), "</text><text x=\"",
      kLeft + Frame::PlotWidth() / 2, "\" y=\"", kHeight - 8,
      "\" text-anchor=\"middle\" font-size=\"10\">", f.x_label, "</text><text x=\"12\" y=\"",
      kTop + (bottom - kTop) / 2, "\" font-size=\"10\" transform=\"rotate(-90 12 ",
      kTop + (bottom - kTop) / 2, ")\" text-anchor=\"middle\">", y_label, "</text>");
}

double Number(const json& v) { return v.is_number() ? v.get<double>() : 0.0; }

}  // namespace

const char* OutcomeColor(std::string_view outcome) {
  if (outcome == "ok") return "#2a9d3f";
  if (outcome == "build_error") return "#e07b00";
  if (outcome == "build_timeout") return "#8c564b";
  if (outcome == "runtime_error") return "#d62728";
  if (outcome == "run_timeout") return "#9467bd";
  if (outcome == "wrong_answer") return "#e377c2";
  if (outcome == "worker_lost") return "#7f7f7f";
  return "#bcbd22";  // invalid_config and anything newer
}

std::string OutcomeLegendHtml() {
  std::string out = "<ul class=\"legend\">";
  for (tuner::ErrorKind kind : tuner::kAllErrorKinds) {
    const std::string name(tuner::ErrorKindName(kind));
    absl::StrAppend(&out,
                    "<li><svg width=\"10\" height=\"10\"><circle cx=\"5\" cy=\"5\" r=\"4\" "
                    "fill=\"",
                    OutcomeColor(name), "\"/></svg> ", name, "</li>");
  }
  return out + "</ul>";
}

std::string GflopsChartSvg(const json& trials) {
  Frame f;
  f.x_max = std::max<double>(1, trials.size());
  for (const json& t : trials) f.y_max = std::max(f.y_max, Number(t["gflops"]));
  f.y_max *= 1.05;
  std::string out = Open("gflops-chart", f, "GFLOPS");
  // Best so far as a step line: flat until a trial beats it.
  std::string path;
  double last_y = -1;
  for (const json& t : trials) {
    if (!t["best_gflops"].is_number()) continue;
    const double x = f.X(Number(t["trial"])), y = f.Y(Number(t["best_gflops"]));
    if (path.empty()) {
      absl::StrAppend(&path, "M", Num(x), " ", Num(y));
    } else if (y != last_y) {
      absl::StrAppend(&path, "H", Num(x), "V", Num(y));
    }
    last_y = y;
  }
  if (!path.empty()) {
    absl::StrAppend(&path, "H", Num(f.X(f.x_max)));
    absl::StrAppend(&out, "<path class=\"best\" d=\"", path,
                    "\" stroke=\"#1f77b4\" stroke-width=\"2\" fill=\"none\"/>");
  }
  // Smaller points when there are many, so ten thousand trials stay readable and small.
  const char* r = trials.size() > 500 ? "1.5" : "3";
  for (const json& t : trials) {
    const std::string outcome = t["outcome"].get<std::string>();
    absl::StrAppend(&out, "<circle class=\"trial ", outcome, "\" cx=\"",
                    Num(f.X(Number(t["trial"]))), "\" cy=\"", Num(f.Y(Number(t["gflops"]))),
                    "\" r=\"", r, "\" fill=\"", OutcomeColor(outcome), "\"/>");
  }
  return out + "</svg>";
}

std::string ModelCurveSvg(const char* id, const json& curve, const char* x_field,
                          const char* x_label, const json& measured_seconds) {
  Frame f;
  f.x_label = x_label;
  f.x_min = 0;
  f.y_min = 0;
  f.y_max = 1e-3;
  for (const json& p : curve) {
    f.x_max = std::max(f.x_max, Number(p[x_field]));
    f.y_max = std::max(f.y_max, Number(p["estimated_seconds"]) * 1e3);
  }
  const double measured_ms = Number(measured_seconds) * 1e3;
  f.y_max = std::max(f.y_max, measured_ms) * 1.05;
  std::string out = Open(id, f, "milliseconds");
  std::string path;
  for (const json& p : curve) {
    const double x = f.X(Number(p[x_field])), y = f.Y(Number(p["estimated_seconds"]) * 1e3);
    absl::StrAppend(&path, path.empty() ? "M" : "H", Num(x), path.empty() ? " " : "V", Num(y));
  }
  if (!path.empty()) {
    absl::StrAppend(&path, "H", Num(f.X(f.x_max)));
    absl::StrAppend(&out, "<path class=\"estimate\" d=\"", path,
                    "\" stroke=\"#1f77b4\" stroke-width=\"2\" fill=\"none\"/>");
  }
  if (measured_ms > 0) {
    absl::StrAppend(&out, "<path class=\"measured\" d=\"M", Num(f.X(f.x_min)), " ",
                    Num(f.Y(measured_ms)), "H", Num(f.X(f.x_max)),
                    "\" stroke=\"#d62728\" stroke-dasharray=\"6 4\" fill=\"none\"/>");
  }
  return out + "</svg>";
}

std::string LatencyChartSvg(const json& trials) {
  Frame f;
  f.log_y = true;
  f.x_max = std::max<double>(1, trials.size());
  std::vector<std::pair<double, double>> points;
  for (const json& t : trials) {
    if (t["outcome"] == "ok" && t["median_seconds"].is_number()) {
      points.emplace_back(Number(t["trial"]), Number(t["median_seconds"]));
    }
  }
  if (points.empty()) {
    f.y_min = 1e-6;
    f.y_max = 1;
  } else {
    f.y_min = f.y_max = points.front().second;
    for (const auto& p : points) {
      f.y_min = std::min(f.y_min, p.second);
      f.y_max = std::max(f.y_max, p.second);
    }
    if (f.y_max <= f.y_min) f.y_max = f.y_min * 2;
  }
  std::string out = Open("latency-chart", f, "median seconds (log)");
  const char* r = points.size() > 500 ? "1.5" : "3";
  for (const auto& [x, y] : points) {
    absl::StrAppend(&out, "<circle class=\"latency\" cx=\"", Num(f.X(x)), "\" cy=\"", Num(f.Y(y)),
                    "\" r=\"", r, "\" fill=\"", OutcomeColor("ok"), "\"/>");
  }
  return out + "</svg>";
}

}  // namespace tunefarm::tracker::http
