#include "tracker/http/pages.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tracker/http/html.h"
#include "tracker/http/svg_chart.h"

namespace tunefarm::tracker::http {
namespace {

using nlohmann::json;

// Trials listed in a job page's table; the chart shows them all.
constexpr size_t kTrialRows = 50;

// Re-fetches the main fragment every 2 s while the server says the page is live (X-Live: 1).
constexpr char kLiveScript[] =
    "<script>(function(){var m=document.getElementById('main');function tick(){"
    "if(m.getAttribute('data-live')!=='1')return;var u=new URL(location.href);"
    "u.searchParams.set('fragment','1');fetch(u).then(function(r){"
    "m.setAttribute('data-live',r.headers.get('X-Live')==='1'?'1':'0');return r.text();})"
    ".then(function(t){m.innerHTML=t;}).catch(function(){})"
    ".finally(function(){setTimeout(tick,2000);});}setTimeout(tick,2000);})();</script>";

constexpr char kStyle[] =
    "<style>body{font:14px sans-serif;margin:0 1.5em}nav a{margin-right:1em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border-bottom:1px solid #ddd;"
    "padding:3px 8px;text-align:left}pre{background:#f6f6f6;padding:8px;overflow:auto}"
    "ul.legend{list-style:none;padding:0}ul.legend li{display:inline;margin-right:1em}"
    "progress{width:8em}code.config{word-break:break-all}</style>";

std::string E(const json& v) {
  if (v.is_null()) return "–";
  if (v.is_string()) return HtmlEscape(v.get<std::string>());
  if (v.is_number_float()) return absl::StrFormat("%.4g", v.get<double>());
  return HtmlEscape(v.dump());
}

std::string Seconds(const json& v) {
  if (!v.is_number()) return "–";
  const double s = v.get<double>();
  if (s < 1e-3) return absl::StrFormat("%.1f µs", s * 1e6);
  if (s < 1) return absl::StrFormat("%.3f ms", s * 1e3);
  return absl::StrFormat("%.2f s", s);
}

std::string Duration(const json& v) {
  if (!v.is_number()) return "–";
  const int64_t s = static_cast<int64_t>(v.get<double>());
  if (s < 60) return absl::StrCat(s, " s");
  if (s < 3600) return absl::StrCat(s / 60, " min ", s % 60, " s");
  return absl::StrCat(s / 3600, " h ", s % 3600 / 60, " min");
}

// How a record was timed (its "cache_flush"), for the record page.
std::string CachesText(const std::string& cache_flush) {
  if (cache_flush == "all") return "every cache flushed before every call";
  if (cache_flush == "weights") return "weights evicted before every call, input warm";
  return "warm, back-to-back calls";
}

std::string Link(const std::string& href, const std::string& text) {
  return absl::StrCat("<a href=\"", HtmlEscape(href), "\">", HtmlEscape(text), "</a>");
}

// A target without its long feature list (-mattr=...), the full string in the tooltip.
std::string Target(const json& target) {
  const std::string full = target.is_string() ? target.get<std::string>() : "";
  const size_t cut = full.find(" -mattr=");
  if (cut == std::string::npos) return HtmlEscape(full);
  return absl::StrCat("<span title=\"", HtmlEscape(full), "\">", HtmlEscape(full.substr(0, cut)),
                      " …</span>");
}

std::string Config(const json& config) {
  return absl::StrCat("<code class=\"config\">",
                      E(config.is_string() ? config : json(config.dump())), "</code>");
}

std::string JobRow(const json& j) {
  return absl::StrCat("<tr class=\"job\" data-id=\"", E(j["id"]), "\"><td>",
                      Link("/jobs/" + j["id"].get<std::string>(), j["id"].get<std::string>()),
                      "</td><td class=\"state\">", E(j["state"]), "</td><td>", E(j["workload"]),
                      "</td><td>", E(j["device_key"]), "</td><td><progress max=\"1\" value=\"",
                      E(j["progress"]), "\"></progress> ", E(j["trials_done"]), "/", E(j["trials"]),
                      "</td><td>", absl::StrFormat("%.2f/s", j["rate"].get<double>()), "</td><td>",
                      Duration(j["eta_seconds"]), "</td><td>", E(j["best_gflops"]), "</td><td>",
                      Seconds(j["best_seconds"]), "</td><td>", E(j["errors"]), "</td></tr>");
}

}  // namespace

std::string PageShell(const std::string& title, const std::string& fragment, bool live) {
  return absl::StrCat("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>",
                      HtmlEscape(title), " · tunefarm</title>", kStyle,
                      "</head><body><nav><a href=\"/\">tunefarm</a><a href=\"/fleet\">fleet</a>"
                      "<a href=\"/jobs\">jobs</a><a href=\"/models\">models</a>"
                      "<a href=\"/workloads\">workloads</a>"
                      "<a href=\"/metrics\">metrics</a></nav><h1>",
                      HtmlEscape(title), "</h1><main id=\"main\" data-live=\"", live ? "1" : "0",
                      "\">", fragment, "</main>", kLiveScript, "</body></html>");
}

std::string OverviewFragment(const json& workers, const json& jobs, const json& workloads) {
  int running = 0;
  for (const json& j : jobs["jobs"]) running += j["state"] == "running" ? 1 : 0;
  int connected = 0;
  for (const json& w : workers["workers"]) connected += w["state"] != "gone" ? 1 : 0;
  return absl::StrCat(
      "<ul id=\"overview\"><li>", Link("/fleet", "fleet"), ": <span id=\"worker-count\">",
      connected, "</span> workers</li><li>", Link("/jobs", "jobs"), ": <span id=\"job-count\">",
      jobs["jobs"].size(), "</span> (", running, " running)</li><li>",
      Link("/workloads", "workloads"), ": <span id=\"workload-count\">",
      workloads["workloads"].size(), "</span></li><li>", Link("/metrics", "metrics"),
      " (Prometheus)</li><li>API: ", Link("/api/workers", "/api/workers"), " ",
      Link("/api/jobs", "/api/jobs"), " ", Link("/api/workloads", "/api/workloads"), "</li></ul>");
}

std::string FleetFragment(const json& workers) {
  std::string out =
      "<table id=\"fleet\"><tr><th>worker</th><th>device key</th><th>target</th><th>hardware</th>"
      "<th>state</th><th>job</th><th>last heartbeat</th><th>measured</th><th>failures</th></tr>";
  for (const json& w : workers["workers"]) {
    const json& hw = w["hardware"];
    std::string hardware = absl::StrCat(E(hw["cpu_model"]), ", ", E(hw["cores"]), " cores, ",
                                        hw["memory_bytes"].get<int64_t>() >> 20, " MiB");
    if (!hw["gpu_model"].get<std::string>().empty())
      absl::StrAppend(&hardware, ", ", E(hw["gpu_model"]));
    if (!hw["cpu_features"].empty()) {
      const std::vector<std::string> features = hw["cpu_features"];
      absl::StrAppend(&hardware, " (", HtmlEscape(absl::StrJoin(features, " ")), ")");
    }
    if (w["emulated"] == true) absl::StrAppend(&hardware, ", <b>emulated</b>");
    std::string job = w["job_id"].is_string()
                          ? Link("/jobs/" + w["job_id"].get<std::string>(), w["job_id"])
                          : "–";
    // A worker that left keeps its row (class "gone", not "worker") until it drops off the list.
    const bool gone = w["state"] == "gone";
    absl::StrAppend(&out, "<tr class=\"", gone ? "gone" : "worker", "\" data-id=\"", E(w["id"]),
                    "\"><td>", E(w["id"]), "</td><td>", E(w["device_key"]),
                    w["role"] == "builder" ? " (builder)" : "", "</td><td>", Target(w["target"]),
                    "</td><td>", hardware, "</td><td class=\"state\">", E(w["state"]), "</td><td>",
                    job, "</td><td>",
                    absl::StrFormat("%.1f s ago", w["heartbeat_age_s"].get<double>()), "</td><td>",
                    E(w["measured"]), "</td><td>", E(w["failures"]), "</td></tr>");
  }
  if (workers["workers"].empty()) out += "<tr><td colspan=\"9\">no workers connected</td></tr>";
  return out + "</table>";
}

std::string JobsFragment(const json& jobs) {
  std::string out =
      "<table id=\"jobs\"><tr><th>job</th><th>state</th><th>workload</th><th>device key</th>"
      "<th>progress</th><th>rate</th><th>ETA</th><th>best GFLOPS</th><th>best latency</th>"
      "<th>errors</th></tr>";
  for (const json& j : jobs["jobs"]) out += JobRow(j);
  if (jobs["jobs"].empty()) out += "<tr><td colspan=\"10\">no jobs</td></tr>";
  return out + "</table>";
}

std::string ModelJobsFragment(const json& model_jobs) {
  std::string out =
      "<table id=\"model-jobs\"><tr><th>model job</th><th>state</th><th>model</th>"
      "<th>device key</th><th>progress</th><th>tasks</th><th>tuned kernels</th>"
      "<th>measured</th><th>untuned</th><th>speedup</th></tr>";
  for (const json& m : model_jobs["model_jobs"]) {
    const std::string id = m["id"].get<std::string>();
    absl::StrAppend(
        &out, "<tr class=\"model-job\" data-id=\"", E(m["id"]), "\"><td>",
        Link("/models/" + id, id), "</td><td class=\"state\">", E(m["state"]), "</td><td>",
        E(m["model"]), "</td><td>", E(m["device_key"]), "</td><td><progress max=\"1\" value=\"",
        E(m["progress"]), "\"></progress> ", E(m["trials_done"]), "/", E(m["trials"]), "</td><td>",
        m["tasks"].size(), "</td><td>", Seconds(m["estimated_seconds"]),
        "</td><td class=\"measured\">", Seconds(m["measured_seconds"]), "</td><td>",
        Seconds(m["untuned_seconds"]), "</td><td>",
        m["speedup"].is_number() ? absl::StrFormat("%.2f×", m["speedup"].get<double>()) : "–",
        "</td></tr>");
  }
  if (model_jobs["model_jobs"].empty()) {
    out += "<tr><td colspan=\"10\">no model jobs (tunefarm model tune --tracker)</td></tr>";
  }
  return out + "</table>";
}

std::string ModelJobFragment(const json& detail) {
  const json& m = detail["model_job"];
  std::string out = absl::StrCat(
      "<table id=\"model-summary\"><tr><th>model</th><td>", E(m["model"]),
      "</td></tr><tr><th>state</th><td class=\"state\">", E(m["state"]), " ", E(m["message"]),
      "</td></tr><tr><th>device key</th><td>", E(m["device_key"]), " (", Target(m["target"]),
      ")</td></tr><tr><th>trials</th><td>", E(m["trials_done"]), "/", E(m["trials"]),
      "</td></tr><tr><th>tuned kernels (estimate)</th><td>", Seconds(m["estimated_seconds"]),
      "</td></tr><tr><th>measured end to end</th><td id=\"measured\">",
      Seconds(m["measured_seconds"]), " on ", E(m["measured_by"]), " (untuned ",
      Seconds(m["untuned_seconds"]), ")</td></tr><tr><th>elapsed</th><td>",
      Duration(m["elapsed_seconds"]), "</td></tr></table>", "<h2>estimated latency by trial</h2>",
      ModelCurveSvg("model-trials-chart", detail["curve"], "trial", "trial", m["measured_seconds"]),
      "<h2>estimated latency by time</h2>",
      ModelCurveSvg("model-time-chart", detail["curve"], "elapsed_seconds", "seconds",
                    m["measured_seconds"]),
      "<p>solid: the sum over the kernels the build runs of how often it runs each × its best "
      "time (the faster of a conv's direct and Winograd tasks; with a layout choice, the block "
      "pairs and transforms of the layout chosen from these bests); dashed: the tuned model "
      "measured end to end</p><h2>tasks</h2><table "
      "id=\"model-tasks\"><tr><th>task</th><th>layer</th>"
      "<th>weight</th>"
      "<th>share</th><th>best</th><th>default</th><th>speedup</th><th>trials</th><th>job</th>"
      "</tr>");
  for (const json& t : m["tasks"]) {
    const json& def = t["default"];
    const json def_s = def.is_object() ? def["median_seconds"] : json(nullptr);
    const bool speedup = def_s.is_number() && t["best_seconds"].is_number();
    // Tuned, but not what the build runs: a layer's slower algorithm, or a block pair or
    // transform outside the chosen layout.
    const bool alternative = t["best_seconds"].is_number() && !t["chosen"].get<bool>();
    absl::StrAppend(
        &out, "<tr class=\"model-task", alternative ? " alternative" : "", "\"><td>",
        E(t["workload"]), "</td><td>", t["layer"].is_number() ? E(t["layer"]) : "–",
        alternative ? " (not run)" : "", "</td><td>", E(t["weight"]), "</td><td>",
        t["share"].is_number() ? absl::StrFormat("%.1f%%", t["share"].get<double>() * 100) : "–",
        "</td><td>", Seconds(t["best_seconds"]), "</td><td>",
        def.is_object() ? Seconds(def_s) : "not measured", "</td><td>",
        speedup ? absl::StrFormat("%.2f×", def_s.get<double>() / t["best_seconds"].get<double>())
                : "–",
        "</td><td>", E(t["trials_done"]), "/", E(t["trials"]), "</td><td>",
        t["job_id"].is_string()
            ? Link("/jobs/" + t["job_id"].get<std::string>(), t["job_id"].get<std::string>())
            : "–",
        "</td></tr>");
  }
  return out + "</table>";
}

std::string JobFragment(const json& detail) {
  const json& job = detail["job"];
  const json& trials = detail["trials"];
  std::string out = absl::StrCat(
      "<table id=\"job-summary\"><tr><th>job</th><th>state</th><th>workload</th><th>device key</th>"
      "<th>progress</th><th>rate</th><th>ETA</th><th>best GFLOPS</th><th>best latency</th>"
      "<th>errors</th></tr>",
      JobRow(job), "</table><p class=\"message\">", E(job["message"]), "</p>",
      "<p>best config: ", Config(job["best_config"]), "</p>",
      "<h2>best-so-far GFLOPS by trial</h2>", GflopsChartSvg(trials), OutcomeLegendHtml(),
      "<h2>latency by trial</h2>", LatencyChartSvg(trials),
      "<h2>errors</h2><table id=\"errors\"><tr><th>outcome</th><th>trials</th></tr>");
  for (const char* kind : {"build_error", "build_timeout", "runtime_error", "run_timeout",
                           "wrong_answer", "worker_lost", "invalid_config"}) {
    const json& counts = detail["error_breakdown"];
    absl::StrAppend(&out, "<tr class=\"error-kind\" data-kind=\"", kind, "\"><td>", kind,
                    "</td><td>", counts.contains(kind) ? E(counts[kind]) : "0", "</td></tr>");
  }
  absl::StrAppend(&out,
                  "</table><h2>last trials</h2><table id=\"trials\"><tr><th>trial</th>"
                  "<th>outcome</th><th>median</th><th>GFLOPS</th><th>best so far</th>"
                  "<th>worker</th><th>record</th></tr>");
  const size_t first = trials.size() > kTrialRows ? trials.size() - kTrialRows : 0;
  for (size_t i = trials.size(); i-- > first;) {
    const json& t = trials[i];
    absl::StrAppend(&out, "<tr class=\"trial-row ", E(t["outcome"]), "\"><td>", E(t["trial"]),
                    "</td><td title=\"", E(t["error_message"]), "\">", E(t["outcome"]), "</td><td>",
                    Seconds(t["median_seconds"]), "</td><td>", E(t["gflops"]), "</td><td>",
                    E(t["best_gflops"]), "</td><td>", E(t["measured_by"]), "</td><td>",
                    Link(absl::StrCat("/records/", t["record_id"].get<int64_t>()),
                         absl::StrCat("#", t["record_id"].get<int64_t>())),
                    "</td></tr>");
  }
  return out + "</table>";
}

std::string WorkloadsFragment(const json& board) {
  std::string out;
  // Whole models first, where model jobs measured their modules end to end.
  if (board.contains("models") && !board["models"].empty()) {
    out +=
        "<h2>models</h2><table id=\"model-leaderboard\"><tr><th>model</th><th>target</th>"
        "<th>device key</th><th>end to end</th><th>untuned</th><th>speedup</th>"
        "<th>measured by</th><th>model job</th></tr>";
    for (const json& m : board["models"]) {
      const std::string id = m["model_job_id"].get<std::string>();
      absl::StrAppend(
          &out, "<tr class=\"best-model\"><td>", E(m["model"]), "</td><td>", Target(m["target"]),
          "</td><td>", E(m["device_key"]), "</td><td class=\"measured\">",
          Seconds(m["measured_seconds"]), "</td><td>", Seconds(m["untuned_seconds"]), "</td><td>",
          m["speedup"].is_number() ? absl::StrFormat("%.2f×", m["speedup"].get<double>()) : "–",
          "</td><td>", E(m["measured_by"]), "</td><td>", Link("/models/" + id, id), "</td></tr>");
    }
    out += "</table><h2>workloads</h2>";
  }
  out +=
      "<table id=\"leaderboard\"><tr><th>workload</th><th>target</th><th>device key</th>"
      "<th>best latency</th><th>GFLOPS</th><th>config</th><th>default latency</th>"
      "<th>speedup</th><th>record</th></tr>";
  for (const json& w : board["workloads"]) {
    for (const json& b : w["best"]) {
      const json& def = b["default"];
      absl::StrAppend(
          &out, "<tr class=\"best\" data-workload=\"", E(w["key"]), "\"><td>", E(w["key"]),
          "</td><td>", Target(b["target"]), "</td><td>", E(b["device_key"]), "</td><td>",
          Seconds(b["median_seconds"]), "</td><td>", E(b["gflops"]), "</td><td>",
          Config(b["config"]), "</td><td class=\"default\">",
          def.is_object() ? Seconds(def["median_seconds"]) : "not measured", "</td><td>",
          b["speedup"].is_number() ? absl::StrFormat("%.2f×", b["speedup"].get<double>()) : "–",
          "</td><td>",
          Link(absl::StrCat("/records/", b["record_id"].get<int64_t>()),
               absl::StrCat("#", b["record_id"].get<int64_t>())),
          "</td></tr>");
    }
  }
  if (board["workloads"].empty()) out += "<tr><td colspan=\"9\">no records yet</td></tr>";
  return out + "</table>";
}

std::string RecordFragment(const json& r) {
  std::string out = absl::StrCat(
      "<table id=\"record\"><tr><th>workload</th><td>", E(r["workload"]),
      "</td></tr><tr><th>target</th><td>", E(r["target"]), "</td></tr><tr><th>device key</th><td>",
      E(r["device_key"]), "</td></tr><tr><th>outcome</th><td class=\"outcome\">", E(r["outcome"]),
      " ", E(r["error_message"]), "</td></tr><tr><th>median</th><td>", Seconds(r["median_seconds"]),
      "</td></tr><tr><th>GFLOPS</th><td>", E(r["gflops"]), "</td></tr><tr><th>build</th><td>",
      Seconds(r["build_seconds"]), "</td></tr><tr><th>built by</th><td>", E(r["built_by"]),
      "</td></tr><tr><th>measured by</th><td>", E(r["measured_by"]),
      r.value("emulated", false) ? " (<b>emulated</b>: the emulator's times, not the device's)"
                                 : "",
      "</td></tr><tr><th>caches</th><td>", CachesText(r.value("cache_flush", "none")),
      "</td></tr><tr><th>spread</th><td id=\"spread\">",
      absl::StrFormat("%.1f %%", 100 * r.value("spread", 0.0)),
      r.value("noisy", false) ? " (noisy: still spread or in a slow phase after timing again)" : "",
      "</td></tr><tr><th>canary</th><td>", absl::StrFormat("%.3f", r.value("canary_ratio", 1.0)),
      "</td></tr><tr><th>job</th><td>",
      r["job_id"].get<std::string>().empty()
          ? std::string("–")
          : Link("/jobs/" + r["job_id"].get<std::string>(), r["job_id"].get<std::string>()),
      "</td></tr><tr><th>version</th><td>", E(r["tunefarm_version"]),
      "</td></tr></table><h2>config</h2><pre id=\"config\">", E(json(r["config"].dump(2))),
      "</pre><h2>repeats</h2><table id=\"repeats\"><tr><th>#</th><th>seconds</th></tr>");
  int i = 0;
  for (const json& s : r["repeat_seconds"]) {
    absl::StrAppend(&out, "<tr class=\"repeat\"><td>", ++i, "</td><td>", Seconds(s), "</td></tr>");
  }
  absl::StrAppend(&out, "</table><h2>lowered IR</h2>");
  if (r["lowered_ir"].is_string()) {
    absl::StrAppend(&out, "<pre id=\"ir\">", E(r["lowered_ir"]), "</pre>");
  } else {
    absl::StrAppend(&out, "<p id=\"ir-error\">", E(r["lowered_ir_error"]), "</p>");
  }
  return out;
}

std::string ErrorFragment(int status, const std::string& message) {
  return absl::StrCat("<p class=\"error\" data-status=\"", status, "\">", HtmlEscape(message),
                      "</p>");
}

}  // namespace tunefarm::tracker::http
