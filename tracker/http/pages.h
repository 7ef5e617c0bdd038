// The dashboard's HTML: each page is a shell (navigation, styles, the live-refresh script) around
// a main fragment rendered from the page's API document; `?fragment=1` serves the fragment alone,
// which the script swaps in every 2 s while a job runs. All text is escaped (html.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace tunefarm::tracker::http {

// `live`: the page's data is still changing, so the script keeps refreshing the fragment.
std::string PageShell(const std::string& title, const std::string& fragment, bool live);

std::string OverviewFragment(const nlohmann::json& workers, const nlohmann::json& jobs,
                             const nlohmann::json& workloads);
std::string FleetFragment(const nlohmann::json& workers);           // WorkersJson
std::string JobsFragment(const nlohmann::json& jobs);               // JobsJson
std::string JobFragment(const nlohmann::json& detail);              // JobDetailJson
std::string ModelJobsFragment(const nlohmann::json& model_jobs);    // ModelJobsJson
std::string ModelJobFragment(const nlohmann::json& detail);         // ModelJobDetailJson
std::string WorkloadsFragment(const nlohmann::json& board);         // LeaderboardJson + "models"
std::string RecordFragment(const nlohmann::json& record);           // RecordJson
std::string ErrorFragment(int status, const std::string& message);  // 404 and friends

}  // namespace tunefarm::tracker::http
