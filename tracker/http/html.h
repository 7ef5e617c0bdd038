// HTML text escaping for the dashboard's server-rendered pages: every piece of data put into a
// page goes through HtmlEscape (workload keys, error messages and IR come from users and devices).
#pragma once

#include <string>
#include <string_view>

namespace tunefarm::tracker::http {

// & < > " ' become entities; safe in element text and in quoted attribute values.
std::string HtmlEscape(std::string_view text);

}  // namespace tunefarm::tracker::http
